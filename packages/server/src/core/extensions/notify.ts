/**
 * Delivering a custom notification to its handler: the era it arrived in, the client as known for
 * it, and the checks of its definition. A notification gets no answer, so a refusal (an era it is
 * not accepted in, params that do not match) or a failing handler is reported, never sent.
 */

import type { NotificationContext } from '../extension-types.js';
import type { Era } from '../handler-types.js';
import type { NotificationEntry } from '../host.js';
import { isThenable } from '../later.js';
import { readEnvelope } from '../modern/envelope.js';
import type { ClientContext } from '../protocol.js';
import type { MessageContext } from '../transport.js';
import { clientExtension } from './client.js';

function headerOf(context: MessageContext | undefined, name: string): string | undefined {
  const value = context?.headers?.[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function modernClient(params: Record<string, unknown> | undefined): ClientContext | undefined {
  try {
    return readEnvelope(params);
  } catch {
    return undefined;
  }
}

export function deliverNotification(
  entry: NotificationEntry,
  method: string,
  params: Record<string, unknown> | undefined,
  era: Era,
  connection: { readonly client: ClientContext | undefined; readonly sessionId: string | undefined },
  context: MessageContext | undefined,
  report: (error: Error) => void,
): void {
  const fail = (error: unknown): void =>
    report(
      new Error(
        `notification ${method} was dropped: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  if (!entry.eras.includes(era)) {
    fail(new Error(`it is not accepted in the ${era} era`));
    return;
  }
  const client = era === 'modern' ? modernClient(params) : connection.client;
  const ctx: NotificationContext = {
    method,
    era,
    client,
    sessionId: connection.sessionId,
    auth: context?.auth,
    header: (name) => headerOf(context, name),
    clientExtension: (id) => clientExtension(client, params, id),
  };
  try {
    const out = entry.run(params, ctx);
    if (isThenable(out)) out.then(undefined, fail);
  } catch (error) {
    fail(error);
  }
}
