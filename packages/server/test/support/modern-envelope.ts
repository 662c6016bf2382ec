/** The 2026-07-28 per-request `_meta` envelope, one builder for in-memory peers, stdio and HTTP posts alike. */

export const MODERN = '2026-07-28';
export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** The `_meta` of a well-formed modern request declaring `capabilities` (and, optionally, a log level). */
export function envelope(
  capabilities: Record<string, unknown> = {},
  logLevel?: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [VERSION_KEY]: MODERN,
    [CAPABILITIES_KEY]: capabilities,
    [CLIENT_INFO_KEY]: { name: 'test-client', version: '1.0.0' },
  };
  if (logLevel !== undefined) meta[LOG_LEVEL_KEY] = logLevel;
  return meta;
}
