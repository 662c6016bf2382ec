/**
 * Bearer-token verification with no transport types: an Authorization header in, a verdict out.
 * JWTs are checked with jose against a JWKS (signature, issuer, audience, expiry); static tokens
 * are compared in constant time. Used by the node:http handler and usable by any other host.
 */

import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import type { TokenInfo } from '../core/types.js';
import { boundedRemoteJWKSet, DEFAULT_JWKS_LIMITS, type Jose, JwksRefused, loadJose } from './jwks.js';

export type { TokenInfo };

export interface StaticToken {
  readonly token: string;
  /** Scopes this token grants. Default none: tools that declare scopes refuse it. */
  readonly scopes?: readonly string[];
  readonly subject?: string;
}

export interface BearerVerifierOptions {
  /**
   * Where the authorization server publishes its keys (fetched and cached by jose; refetched for an
   * unknown `kid`, at most once per 30 s: a new `kid` within 30 s of the last fetch is refused).
   */
  readonly jwksUrl?: string | URL;
  /** Largest key-set document read from `jwksUrl`, in bytes. Default 256 KiB. */
  readonly maxJwksBytes?: number;
  /** Most keys the key set may hold. Default 100. */
  readonly maxJwksKeys?: number;
  /** Time allowed for one key-set fetch, body included (ms). Default 5,000. */
  readonly jwksTimeoutMs?: number;
  /** Told when the key set cannot be fetched or is refused by a limit (the token is refused too). */
  readonly onKeySetError?: (error: Error) => void;
  /** A key set given directly instead of a URL. */
  readonly jwks?: { keys: readonly Record<string, unknown>[] };
  /** Required `iss`. Required with a JWKS. */
  readonly issuer?: string | readonly string[];
  /** Required `aud` (this server's resource identifier). Required with a JWKS. */
  readonly audience?: string | readonly string[];
  /** Allowed signature algorithms. Default: what the keys allow. */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew allowed on exp/nbf/iat. Default 30. */
  readonly clockToleranceSec?: number;
  /** Fixed tokens for simple deployments (also allowed alongside a JWKS). */
  readonly tokens?: readonly (string | StaticToken)[];
}

export type BearerVerdict =
  | { readonly ok: true; readonly info: TokenInfo }
  | {
      readonly ok: false;
      /** RFC 6750 §3.1: `invalid_request` for a malformed header; none when there was no token. */
      readonly error: 'invalid_request' | 'invalid_token' | undefined;
      readonly description: string;
    };

export interface BearerVerifier {
  /** Verify an `Authorization` header value (undefined when the request had none). */
  verify(authorization: string | undefined): Promise<BearerVerdict>;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function createBearerVerifier(options: BearerVerifierOptions): BearerVerifier {
  const statics = (options.tokens ?? []).map((t) => (typeof t === 'string' ? { token: t } : t));
  for (const t of statics) {
    if (typeof t.token !== 'string' || t.token.length < 16 || !BEARER.test(`Bearer ${t.token}`)) {
      throw new TypeError('bearer: each static token must be at least 16 token68 characters');
    }
  }
  const keys = keySet(options);
  if (keys === undefined && statics.length === 0) {
    throw new TypeError('bearer: give jwksUrl, jwks or tokens');
  }
  if (keys !== undefined && (options.issuer === undefined || options.audience === undefined)) {
    throw new TypeError('bearer: a JWKS needs both issuer and audience');
  }
  const verifyOptions = {
    issuer: options.issuer as string | string[] | undefined,
    audience: options.audience as string | string[] | undefined,
    algorithms: options.algorithms as string[] | undefined,
    clockTolerance: options.clockToleranceSec ?? 30,
    requiredClaims: ['exp'],
  };
  return {
    async verify(authorization) {
      if (authorization === undefined || authorization === '') {
        return { ok: false, error: undefined, description: 'no bearer token' };
      }
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined) {
        return {
          ok: false,
          error: 'invalid_request',
          description: 'the Authorization header is not "Bearer <token>"',
        };
      }
      const fixed = statics.find((t) => sameString(t.token, token));
      if (fixed !== undefined) {
        return { ok: true, info: { token, scopes: fixed.scopes ?? [], subject: fixed.subject, claims: {} } };
      }
      if (keys === undefined) return { ok: false, error: 'invalid_token', description: 'unknown token' };
      const jose = await loadJose();
      try {
        const { payload } = await jose.jwtVerify(token, await keys(), verifyOptions);
        return { ok: true, info: infoOf(token, payload) };
      } catch (error) {
        if (error instanceof JwksRefused || error instanceof jose.errors.JWKSTimeout)
          options.onKeySetError?.(error as Error);
        return { ok: false, error: 'invalid_token', description: describe(jose, error) };
      }
    },
  };
}

/**
 * The key set of `options`, made on the first token to check: jose loads then, so that a server with static
 * tokens only (or no bearer auth at all) never loads it. The limits are checked here, at once.
 */
function keySet(options: BearerVerifierOptions): (() => Promise<JWTVerifyGetKey>) | undefined {
  let made: Promise<JWTVerifyGetKey> | undefined;
  const once = (make: (jose: Jose) => JWTVerifyGetKey) => () => {
    made ??= loadJose().then(make);
    return made;
  };
  if (options.jwksUrl !== undefined) {
    const url = new URL(options.jwksUrl);
    const limits = {
      maxBytes: limit(options.maxJwksBytes, DEFAULT_JWKS_LIMITS.maxBytes, 'maxJwksBytes'),
      maxKeys: limit(options.maxJwksKeys, DEFAULT_JWKS_LIMITS.maxKeys, 'maxJwksKeys'),
      timeoutMs: limit(options.jwksTimeoutMs, DEFAULT_JWKS_LIMITS.timeoutMs, 'jwksTimeoutMs'),
    };
    return once((jose) => boundedRemoteJWKSet(jose, url, limits));
  }
  const jwks = options.jwks;
  if (jwks !== undefined) {
    if (!Array.isArray((jwks as { keys?: unknown } | null)?.keys))
      throw new TypeError('bearer: jwks must be a JSON Web Key Set, an object with a keys array');
    return once((jose) => jose.createLocalJWKSet(jwks as Parameters<Jose['createLocalJWKSet']>[0]));
  }
  return undefined;
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`bearer: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

function infoOf(token: string, payload: JWTPayload): TokenInfo {
  const scope = payload.scope;
  const scp = payload.scp;
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ').filter((s) => s !== '')
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === 'string')
        : [];
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
  return { token, scopes, subject: payload.sub, clientId, expiresAt: payload.exp, claims: payload };
}

function describe({ errors }: Jose, error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the issuer matches the token';
  if (error instanceof JwksRefused) return `the issuer's keys could not be used: ${error.message}`;
  if (error instanceof errors.JWKSTimeout) return "the issuer's keys could not be fetched in time";
  if (error instanceof errors.JOSEError) return `the token is not accepted (${error.code})`;
  return 'the token could not be verified';
}

/** Equal-length strings compared without an early exit. */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
