/**
 * The bearer-token hook and RFC 9728 protected-resource metadata. The hook decides; this module
 * only turns its verdict into the right status and `WWW-Authenticate` challenge.
 */

import { type BearerVerifierOptions, createBearerVerifier } from '../../auth/bearer.js';
import type { HttpAuthOptions, ProtectedResourceMetadata } from '../options.js';
import { type Refusal, refuse } from '../seam/refusal.js';
import { byteLength } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';

export const PRM_PATH = '/.well-known/oauth-protected-resource';

/** What an `authenticate` hook may throw to answer 403 instead of 401. */
export interface AuthRefusal {
  readonly status?: number;
  readonly scope?: string;
  /** RFC 6750 error code for a 401 (`invalid_token` when a token was sent, by default). */
  readonly error?: 'invalid_request' | 'invalid_token';
  /** Sent as `error_description`. */
  readonly message?: string;
}

function origin(req: HttpRequest): string {
  return `${req.secure ? 'https' : 'http'}://${req.header('host') ?? 'localhost'}`;
}

/** The metadata document's URL for an endpoint at `path` (RFC 9728 §3: suffix the resource path). */
export function metadataUrl(req: HttpRequest, path: string): string {
  return `${origin(req)}${PRM_PATH}${path}`;
}

/** Serve the metadata document; returns false when `pathname` is not a metadata path. */
export function serveMetadata(
  req: HttpRequest,
  res: ResponseSink,
  pathname: string,
  auth: HttpAuthOptions,
  endpointPath: string,
): boolean {
  if (pathname !== PRM_PATH && pathname !== `${PRM_PATH}${endpointPath}`) return false;
  const metadata = auth.resourceMetadata;
  if (metadata === undefined) {
    refuse({ status: 404, code: -32000, message: 'Not Found: no protected-resource metadata is configured' });
  }
  if (req.method !== 'GET') {
    refuse({ status: 405, code: -32000, message: 'Method Not Allowed', headers: { allow: 'GET' } });
  }
  const body = JSON.stringify({ resource: `${origin(req)}${endpointPath}`, ...metadata });
  res.writeHead(200, {
    'content-type': 'application/json',
    'cache-control': 'max-age=3600',
    'content-length': String(byteLength(body)),
  });
  res.end(body);
  return true;
}

/** Run the hook: resolves with what it returned, or refuses (401/403 with a challenge). */
export async function runAuth(
  req: HttpRequest,
  auth: HttpAuthOptions,
  endpointPath: string,
): Promise<unknown> {
  try {
    return await auth.authenticate(req.native);
  } catch (error) {
    const refusal = (typeof error === 'object' && error !== null ? error : {}) as AuthRefusal;
    if (refusal.status === 403) {
      refuse(
        scopeRefusal(req, auth, endpointPath, typeof refusal.scope === 'string' ? refusal.scope : undefined),
      );
    }
    const params = metadataParam(req, auth, endpointPath);
    const code = refusal.error ?? (req.header('authorization') !== undefined ? 'invalid_token' : undefined);
    if (code !== undefined) {
      params.unshift(`error="${quoteSafe(code)}"`);
      if (refusal.error !== undefined && typeof refusal.message === 'string')
        params.splice(1, 0, `error_description="${quoteSafe(refusal.message)}"`);
    }
    const status = code === 'invalid_request' ? 400 : 401;
    if (params.length === 0) params.push(`realm="mcp"`);
    const message =
      status === 400
        ? 'Bad Request: malformed Authorization header'
        : 'Unauthorized: a valid bearer token is required';
    refuse({ status, code: -32000, message, headers: { 'www-authenticate': `Bearer ${params.join(', ')}` } });
  }
}

/** 403 insufficient_scope (RFC 6750 §3.1), naming the scopes the request needs. */
export function scopeRefusal(
  req: HttpRequest,
  auth: HttpAuthOptions,
  endpointPath: string,
  scope: string | undefined,
): Refusal {
  const params = ['error="insufficient_scope"'];
  if (scope !== undefined) params.push(`scope="${quoteSafe(scope)}"`);
  params.push(...metadataParam(req, auth, endpointPath));
  const needs = scope === undefined ? 'insufficient scope' : `this request needs scope "${quoteSafe(scope)}"`;
  return {
    status: 403,
    code: -32000,
    message: `Forbidden: ${needs}`,
    headers: { 'www-authenticate': `Bearer ${params.join(', ')}` },
  };
}

/** `resource_metadata` (RFC 9728 §5.1) when there is a metadata document to point at. */
function metadataParam(req: HttpRequest, auth: HttpAuthOptions, endpointPath: string): string[] {
  return auth.resourceMetadata === undefined ? [] : [`resource_metadata="${metadataUrl(req, endpointPath)}"`];
}

/** Auth options for the handler that verify bearer tokens (JWT with JWKS, or static tokens). */
export function bearerAuth(
  options: BearerVerifierOptions & { readonly resourceMetadata?: ProtectedResourceMetadata },
): HttpAuthOptions {
  const verifier = createBearerVerifier(options);
  return {
    resourceMetadata: options.resourceMetadata,
    async authenticate(req) {
      const header = req.headers.authorization;
      const verdict = await verifier.verify(typeof header === 'string' ? header : undefined);
      if (verdict.ok) return verdict.info;
      throw { status: 401, error: verdict.error, message: verdict.description } satisfies AuthRefusal;
    },
  };
}

function quoteSafe(value: string): string {
  return value.replace(/[^ -~]|["\\]/g, ''); // printable ASCII only, no quote or backslash
}
