/**
 * The 2026-07-28 request envelope: the `_meta` keys that make a request modern, and the per-request
 * client context read from them (version, capabilities, client info, log level).
 */

import { ErrorCode, McpError } from '../errors.js';
import { isLogLevel } from '../logging.js';
import type { ClientContext } from '../protocol.js';
import type { ClientCapabilities, Implementation, LogLevel } from '../types.js';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The modern revisions this server speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The client context of one modern request. */
export interface ModernClient extends ClientContext {
  /** The request's `logLevel`: no `notifications/message` is sent for it when undefined. */
  readonly logLevel: LogLevel | undefined;
}

/** Whether a request's params carry the modern envelope (its `_meta` names a protocol version). */
export function isEnveloped(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && META_PROTOCOL_VERSION in meta;
}

/** The protocol version a request's `_meta` names, if it is a string. */
export function envelopeVersion(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[META_PROTOCOL_VERSION];
  return typeof version === 'string' ? version : undefined;
}

export function unsupportedVersion(requested: unknown): McpError {
  return new McpError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${JSON.stringify(requested)} (this server speaks ${MODERN_PROTOCOL_VERSIONS.join(', ')} per request, or the 2025 revisions after initialize)`,
    { supported: [...MODERN_PROTOCOL_VERSIONS], requested },
  );
}

function missing(key: string, what: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: _meta["${key}"] ${what}`, {
    pointer: `/params/_meta/${key.replace('/', '~1')}`,
  });
}

/** Read and check the envelope of a modern request: -32602 when incomplete, -32022 when unsupported. */
export function readEnvelope(params: Record<string, unknown> | undefined): ModernClient {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: protocol ${MODERN_PROTOCOL_VERSION} requests need params._meta with "${META_PROTOCOL_VERSION}" and "${META_CLIENT_CAPABILITIES}"`,
      { pointer: '/params/_meta' },
    );
  }
  const m = meta as Record<string, unknown>;
  const version = m[META_PROTOCOL_VERSION];
  if (typeof version !== 'string') throw missing(META_PROTOCOL_VERSION, 'must be a string');
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) throw unsupportedVersion(version);
  const capabilities = m[META_CLIENT_CAPABILITIES];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    throw missing(META_CLIENT_CAPABILITIES, 'must be an object (the client capabilities)');
  }
  const info = m[META_CLIENT_INFO];
  if (info !== undefined && (typeof info !== 'object' || info === null || Array.isArray(info))) {
    throw missing(META_CLIENT_INFO, 'must be an object when present');
  }
  const level = m[META_LOG_LEVEL];
  if (level !== undefined && !isLogLevel(level)) {
    throw missing(
      META_LOG_LEVEL,
      'must be one of debug, info, notice, warning, error, critical, alert, emergency',
    );
  }
  return {
    protocolVersion: version,
    capabilities: capabilities as ClientCapabilities,
    info: info as Implementation | undefined,
    logLevel: level as LogLevel | undefined,
  };
}
