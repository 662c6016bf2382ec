/**
 * Classify a POST body: its era (2026-07-28, or a 2025 revision with its `MCP-Protocol-Version`),
 * and in the 2025 era whether it is a batch or one request, notification or response. Refusals for
 * an unknown version or a body that is no JSON-RPC message are thrown.
 */

import { SUPPORTED_PROTOCOL_VERSIONS } from '../../core/protocol.js';
import type { JsonRpcMessage } from '../../core/transport.js';
import { refuse } from '../seam/refusal.js';
import type { RequestView } from '../seam/view.js';
import { httpEra } from './era.js';
import { checkProtocolVersion } from './guards.js';
import { type Kind, messageKind } from './message-kind.js';

export type Classified =
  | { readonly era: 'modern' }
  | { readonly era: 'legacy'; readonly version: string | undefined; readonly batch: unknown[] }
  | {
      readonly era: 'legacy';
      readonly version: string | undefined;
      readonly batch?: undefined;
      readonly kind: Kind;
      readonly message: JsonRpcMessage;
    };

const MODERN: Classified = { era: 'modern' };

export function classify(req: RequestView, message: unknown): Classified {
  if (httpEra(req, message) === 'modern') return MODERN;
  const version = checkVersion(req);
  if (Array.isArray(message)) return { era: 'legacy', version, batch: message };
  const kind = messageKind(message);
  if (kind === undefined) {
    refuse({ status: 400, code: -32600, message: 'Invalid Request: the body is not a JSON-RPC 2.0 message' });
  }
  return { era: 'legacy', version, kind, message: message as JsonRpcMessage };
}

/** The request's `MCP-Protocol-Version` (undefined: 2025-03-26); refuses a version not supported. */
export function checkVersion(req: RequestView): string | undefined {
  const version = checkProtocolVersion(req, SUPPORTED_PROTOCOL_VERSIONS);
  if (typeof version === 'object') refuse(version);
  return version;
}
