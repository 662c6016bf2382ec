/**
 * Which requests are modern, and how one is routed: its method in the 2026-07-28 table and its
 * client context from the envelope. A refusal is an McpError with the spec's code.
 */

import { ErrorCode, McpError } from '../errors.js';
import type { MethodSpec, ServerHost } from '../host.js';
import {
  envelopeVersion,
  isEnveloped,
  MODERN_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  type ModernClient,
  readEnvelope,
  unsupportedVersion,
} from './envelope.js';
import { REMOVED_METHODS } from './methods.js';

/** The context of a `server/discover` probe that carries no envelope: it pins nothing. */
const PROBE: ModernClient = Object.freeze({
  protocolVersion: MODERN_PROTOCOL_VERSION,
  capabilities: Object.freeze({}),
  info: undefined,
  logLevel: undefined,
});

/** Whether a request on a connection not pinned to either era is served in the modern era. */
export function isModernRequest(method: string, params: unknown): boolean {
  return method === 'server/discover' || isEnveloped(params);
}

export interface ModernRoute {
  spec: MethodSpec;
  client: ModernClient;
}

/**
 * Whether a request pins its connection to the modern era: any request whose envelope names a
 * supported version, whether or not it is then served, except `server/discover` (a probe).
 */
export function pinsModern(method: string, params: Record<string, unknown> | undefined): boolean {
  const version = envelopeVersion(params);
  return method !== 'server/discover' && version !== undefined && MODERN_PROTOCOL_VERSIONS.includes(version);
}

export function routeModern(
  server: ServerHost,
  method: string,
  params: Record<string, unknown> | undefined,
): ModernRoute {
  if (method === 'initialize') {
    throw unsupportedVersion(params?.protocolVersion);
  }
  const spec = server.modernMethods.get(method);
  if (spec === undefined) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      REMOVED_METHODS.has(method)
        ? `Method not found: ${method} is not part of protocol ${MODERN_PROTOCOL_VERSION}`
        : `Method not found: ${method}`,
    );
  }
  if (method === 'server/discover' && !isEnveloped(params)) return { spec, client: PROBE };
  return { spec, client: readEnvelope(params) };
}
