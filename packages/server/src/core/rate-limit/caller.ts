/** The rate limiter's view of who sent a request, read from its connection and its message context. */

import type { MessageContext } from '../transport.js';
import type { RateCaller } from './types.js';

export function rateCaller(
  conn: {
    readonly sessionId: string | undefined;
    readonly connectionKey: string;
    readonly ephemeral: boolean;
  },
  context: MessageContext | undefined,
): RateCaller {
  return {
    principal: context?.principal,
    client: context?.client,
    sessionId: conn.sessionId,
    // A connection of one exchange (stateless HTTP, a 2026-07-28 POST) tells no caller apart.
    connectionKey: conn.ephemeral ? undefined : conn.connectionKey,
    auth: context?.auth,
  };
}
