/**
 * The one wording of a request whose answer will never come: its process died before storing one, or
 * shut down (after the drain grace) before the request finished. Both eras, every path that gives up
 * on a request (a resumption that finds its process gone, a shutdown, a 2026-07-28 call whose stream
 * broke) answer with this error, so a client can tell a lost request from one the tool refused.
 */

import type { RequestId } from '../../core/transport.js';

/** Why the answer will never come. */
export type LostCause = 'gone' | 'stopped' | 'cut';

const WHY: Record<LostCause, string> = {
  gone: 'is gone and no answer was stored',
  stopped: 'shut down before it finished',
  cut: 'lost the connection carrying it, and its answer was not kept',
};

/** The JSON-RPC error code of a lost request. */
export const LOST_CODE = -32000;

/** The message of a request lost for `cause` in process `node`. */
export function lostMessage(node: string, cause: LostCause): string {
  return (
    `Request lost: the server process that was serving it (${node}) ${WHY[cause]}; ` +
    'it was not retried, and it may or may not have taken effect'
  );
}

/** The error answering request `id` (its JSON text). */
export function lostRequestError(id: RequestId, node: string, cause: LostCause = 'gone'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: LOST_CODE, message: lostMessage(node, cause) },
  });
}
