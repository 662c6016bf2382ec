/** The rate limiter's view of who sent a request, read from its connection and its message context. */

import type { MessageContext } from '../transport.js';
import type { RateCaller } from './types.js';

export function rateCaller(
  conn: { readonly sessionId: string | undefined; readonly connectionKey: string },
  context: MessageContext | undefined,
): RateCaller {
  return {
    principal: context?.principal,
    client: context?.client,
    sessionId: conn.sessionId,
    connectionKey: conn.connectionKey,
    auth: context?.auth,
  };
}
