/**
 * Which requests are modern, and how one is routed: its method in the 2026-07-28 table and its
 * client context from the envelope. A refusal is an McpError with the spec's code.
 */

import { requireDeclared } from '../declared.js';
import { ErrorCode, McpError } from '../errors.js';
import type { MethodSpec, ServerHost } from '../host.js';
import { REMOVED_METHODS } from '../methods/modern.js';
import {
  envelopeVersion,
  isEnveloped,
  MODERN_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  type ModernClient,
  readEnvelope,
  unsupportedVersion,
} from '../modern/envelope.js';

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
  // On a connection pinned to the modern era; an enveloped initialize is simply not a method here.
  if (method === 'initialize' && !isEnveloped(params)) throw unsupportedVersion(params?.protocolVersion);
  const spec = server.modernMethods.get(method);
  if (spec === undefined) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      REMOVED_METHODS.has(method)
        ? `Method not found: ${method} is not part of protocol ${MODERN_PROTOCOL_VERSION}`
        : `Method not found: ${method}`,
    );
  }
  const client = readEnvelope(params);
  requireDeclared(server, method, spec.needs);
  return { spec, client };
}
