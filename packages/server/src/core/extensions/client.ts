/**
 * The extensions a client declared: in this request's `_meta` client capabilities (how every
 * 2026-07-28 request carries them, and how a 2025 client may opt in for one request), else in the
 * capabilities it sent at initialize. The one place that reads them, and the one refusal when one
 * that a request needs is missing.
 */

import { ErrorCode, McpError } from '../errors.js';
import { META_CLIENT_CAPABILITIES } from '../modern/envelope.js';
import type { ClientContext } from '../protocol.js';

function extensionsOf(capabilities: unknown): Record<string, unknown> | undefined {
  if (typeof capabilities !== 'object' || capabilities === null) return undefined;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions)
    ? (extensions as Record<string, unknown>)
    : undefined;
}

function settingsOf(
  extensions: Record<string, unknown> | undefined,
  id: string,
): Record<string, unknown> | undefined {
  if (extensions === undefined || !Object.hasOwn(extensions, id)) return undefined;
  const value = extensions[id];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The settings the client declared for extension `id` for this request, or undefined. */
export function clientExtension(
  client: ClientContext | undefined,
  params: Record<string, unknown> | undefined,
  id: string,
): Record<string, unknown> | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const perRequest = meta === undefined ? undefined : extensionsOf(meta[META_CLIENT_CAPABILITIES]);
  if (perRequest !== undefined) return settingsOf(perRequest, id);
  return settingsOf(extensionsOf(client?.capabilities), id);
}

/** -32021: serving this needs extension `id`, which the client did not declare. */
export function missingExtension(id: string, what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the extension "${id}", which the client did not declare (capabilities.extensions)`,
    { requiredCapabilities: { extensions: { [id]: {} } } },
  );
}
