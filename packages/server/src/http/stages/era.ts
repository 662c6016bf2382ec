/**
 * Which protocol era an HTTP request belongs to, decided once from the request view and its parsed
 * body: 2026-07-28 (no session; the version rides in each request's `_meta`) or the 2025 revisions.
 */

import { retryAfterOf } from '../../core/errors.js';
import { isEnveloped, MODERN_PROTOCOL_VERSIONS } from '../../core/modern/envelope.js';
import type { RequestView } from '../seam/view.js';

export type HttpEra = 'legacy' | 'modern';

/**
 * Legacy: GET/DELETE, an `Mcp-Session-Id`, `initialize`, or a 2025 `MCP-Protocol-Version` header
 * with no version in `_meta`. Modern: a version in `_meta`, a modern `MCP-Protocol-Version` header,
 * or a `server/discover` probe.
 */
export function httpEra(view: RequestView, message: unknown): HttpEra {
  if (view.method !== 'POST' || view.header('mcp-session-id') !== undefined) return 'legacy';
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'legacy';
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (isEnveloped(params) || method === 'server/discover') return 'modern';
  if (method === 'initialize') return 'legacy';
  const version = view.header('mcp-protocol-version')?.trim();
  return version !== undefined && MODERN_PROTOCOL_VERSIONS.includes(version) ? 'modern' : 'legacy';
}

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
