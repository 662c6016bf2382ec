/** The HTTP status a 2026-07-28 answer goes out with, read from its JSON-RPC error. */

import { retryAfterOf } from '../../core/errors.js';

/**
 * The HTTP status of a modern JSON-RPC answer: 404 for an unknown method, 400 for a bad request, 503 for
 * a request refused for want of shared state (with Retry-After: `retryAfterOf`).
 */
export function modernStatus(message: { error?: { code?: unknown } }): number {
  const code = message.error?.code;
  if (code === undefined) return 200;
  if (retryAfterOf(message) !== undefined) return 503;
  if (code === -32601) return 404;
  if (code === -32600 || code === -32602 || code === -32700) return 400;
  if (code === -32020 || code === -32021 || code === -32022) return 400;
  return 200;
}
