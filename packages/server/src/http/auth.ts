/**
 * The bearer-token hook and RFC 9728 protected-resource metadata. The hook decides; this module
 * only turns its verdict into the right status and `WWW-Authenticate` challenge.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthOptions } from './options.js';
import { sendJsonError } from './reply.js';

export const PRM_PATH = '/.well-known/oauth-protected-resource';

/** What an `authenticate` hook may throw to answer 403 instead of 401. */
export interface AuthRefusal {
  readonly status?: number;
  readonly scope?: string;
  readonly message?: string;
}

function origin(req: IncomingMessage): string {
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  return `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
}

/** The metadata document's URL for an endpoint at `path` (RFC 9728 §3: suffix the resource path). */
export function metadataUrl(req: IncomingMessage, path: string): string {
  return `${origin(req)}${PRM_PATH}${path}`;
}

/** Serve the metadata document; returns false when `pathname` is not a metadata path. */
export function serveMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  auth: HttpAuthOptions,
  endpointPath: string,
): boolean {
  if (pathname !== PRM_PATH && pathname !== `${PRM_PATH}${endpointPath}`) return false;
  const metadata = auth.resourceMetadata;
  if (metadata === undefined) {
    sendJsonError(res, 404, -32000, 'Not Found: no protected-resource metadata is configured');
    return true;
  }
  if (req.method !== 'GET') {
    sendJsonError(res, 405, -32000, 'Method Not Allowed', { allow: 'GET' });
    return true;
  }
  const body = JSON.stringify({ resource: `${origin(req)}${endpointPath}`, ...metadata });
  res.writeHead(200, {
    'content-type': 'application/json',
    'cache-control': 'max-age=3600',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
  return true;
}

/**
 * Run the hook. Resolves with what it returned, or answers the request (401/403 with a challenge)
 * and resolves with `REFUSED`.
 */
export async function runAuth(
  req: IncomingMessage,
  res: ServerResponse,
  auth: HttpAuthOptions,
  endpointPath: string,
): Promise<unknown> {
  try {
    return await auth.authenticate(req);
  } catch (error) {
    const refusal = (typeof error === 'object' && error !== null ? error : {}) as AuthRefusal;
    const params = [`resource_metadata="${metadataUrl(req, endpointPath)}"`];
    if (refusal.status === 403) {
      params.unshift('error="insufficient_scope"');
      if (typeof refusal.scope === 'string') params.push(`scope="${quoteSafe(refusal.scope)}"`);
      sendJsonError(res, 403, -32000, 'Forbidden: insufficient scope', {
        'www-authenticate': `Bearer ${params.join(', ')}`,
      });
      return REFUSED;
    }
    if (req.headers.authorization !== undefined) params.unshift('error="invalid_token"');
    sendJsonError(res, 401, -32000, 'Unauthorized: a valid bearer token is required', {
      'www-authenticate': `Bearer ${params.join(', ')}`,
    });
    return REFUSED;
  }
}

export const REFUSED: unique symbol = Symbol('refused');

function quoteSafe(value: string): string {
  return value.replace(/["\\]/g, '');
}
