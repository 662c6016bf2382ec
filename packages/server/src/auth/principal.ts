/**
 * The principal key: one stable string per caller, computed where authentication happens (the HTTP
 * layer) from what the authentication hook returned. Sessions, sealed `requestState` and anything
 * else that must belong to one caller are bound to it; handlers see it as `ctx.principal`.
 *
 * - a hook result with a string `principal` names it itself;
 * - a verified identity with a subject (a JWT's `sub`, a static token's `subject`): `sub-` and the
 *   SHA-256 of issuer and subject, so a new token for the same user is the same principal;
 * - a credential without a subject (a static token, a JWT without `sub`): `cred-` and the SHA-256 of
 *   the token, or of the `Authorization` header when the hook returned no token;
 * - nothing of the above (no auth): undefined.
 *
 * Digests keep credentials out of every place the key is stored (Redis, logs) and make the key a
 * fixed-size string of `[a-z0-9-]`, usable in key names. SHA-256 comes from @noble/hashes: synchronous
 * and web-standard (the fetch handler imports nothing from node:).
 */

import { sha256 as digest } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The principal key of a caller, from the authentication hook's result (`auth`, a `TokenInfo` for
 * `bearerAuth`) and the request's `Authorization` header; undefined when neither identifies anyone.
 */
export function principalOf(auth: unknown, authorization?: string | undefined): string | undefined {
  if (typeof auth === 'object' && auth !== null) {
    const a = auth as Record<string, unknown>;
    if (typeof a.principal === 'string' && a.principal !== '') return a.principal;
    const subject = text(a.subject) ?? text(a.sub);
    if (subject !== undefined) {
      const claims = typeof a.claims === 'object' && a.claims !== null ? (a.claims as { iss?: unknown }) : {};
      const issuer = text(claims.iss) ?? text(a.iss) ?? text(a.issuer) ?? null;
      return `sub-${sha256(JSON.stringify([issuer, subject]))}`;
    }
    const token = text(a.token);
    if (token !== undefined) return `cred-${sha256(token)}`;
  }
  const header = authorization?.trim();
  return header === undefined || header === '' ? undefined : `cred-${sha256(header)}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function sha256(data: string): string {
  return bytesToHex(digest(utf8ToBytes(data)));
}
