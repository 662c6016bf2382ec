// What a request looks like in each era: 2025-11-25 after an `initialize` handshake, or 2026-07-28 with
// the per-request `_meta` envelope (no handshake, no session) and, over HTTP, the routing headers.
export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

/** The `_meta` every modern request carries. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'entropic-bench', version: '0.0.0' },
};

/** The params of the echo `tools/call` in `era` ('legacy' | 'modern'), as JSON text. */
export function callParams(target, era) {
  const params = { name: target.tool, arguments: target.arguments };
  if (era === 'modern') params._meta = MODERN_META;
  return JSON.stringify(params);
}

/** The HTTP headers of a modern `tools/call` of `tool`. */
export function modernCallHeaders(tool) {
  return { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': tool };
}
