/**
 * Which protocol era an HTTP request belongs to, decided once from the request view and its parsed
 * body: 2026-07-28 (no session; the version rides in each request's `_meta`) or the 2025 revisions.
 */

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
