/**
 * `serve --auth-*`: bearer auth for the HTTP transport, from a JWKS (with issuer and audience) and/or
 * a token file (one token per line, optionally followed by the scopes it grants; `#` starts a comment).
 */

import { readFile } from 'node:fs/promises';
import type { HttpAuthOptions } from '@entropic-mcp/server/http';
import { type ServeAuthArgs, UsageError } from '../config/args.js';

export interface ServeAuth {
  readonly options: HttpAuthOptions;
  /** One line for the start-up report. */
  readonly summary: string;
  /** The fixed tokens accepted, which no log line may show. */
  readonly secrets: readonly string[];
}

/** Parse a token file's text; throws UsageError naming the file and line of a problem. */
export function parseTokenFile(text: string, file: string): { token: string; scopes: string[] }[] {
  const tokens: { token: string; scopes: string[] }[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    const [token = '', ...scopes] = line.split(/\s+/);
    if (token.length < 16 || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
      throw new UsageError(
        `--auth-token-file ${file}:${index + 1}: a token must be at least 16 characters of A-Z a-z 0-9 -._~+/`,
      );
    }
    tokens.push({ token, scopes });
  }
  if (tokens.length === 0) throw new UsageError(`--auth-token-file ${file} holds no token`);
  return tokens;
}

/** `onKeySetError` hears of a JWKS that could not be fetched or read (serve's log, so JSON when asked, masked). */
export async function loadServeAuth(
  auth: ServeAuthArgs,
  onKeySetError: (error: Error) => void,
): Promise<ServeAuth> {
  let tokens: { token: string; scopes: string[] }[] | undefined;
  if (auth.tokenFile !== undefined) {
    let text: string;
    try {
      text = await readFile(auth.tokenFile, 'utf8');
    } catch (error) {
      throw new UsageError(`--auth-token-file ${auth.tokenFile}: ${(error as Error).message}`);
    }
    tokens = parseTokenFile(text, auth.tokenFile);
  }
  // Loaded here, not at start-up: only an HTTP server with --auth-* needs it.
  const { bearerAuth } = await import('@entropic-mcp/server/http');
  const options = bearerAuth({
    ...(auth.jwksUrl === undefined
      ? {}
      : {
          jwksUrl: auth.jwksUrl,
          issuer: auth.issuer,
          audience: auth.audience,
          resourceMetadata: { authorization_servers: [auth.issuer as string] },
          onKeySetError,
        }),
    ...(tokens === undefined ? {} : { tokens }),
  });
  const parts: string[] = [];
  if (auth.jwksUrl !== undefined) {
    parts.push(`JWT from ${auth.issuer} (keys ${auth.jwksUrl}, audience ${auth.audience})`);
  }
  if (tokens !== undefined) parts.push(`${tokens.length} token(s) from ${auth.tokenFile}`);
  return {
    options,
    summary: `auth: bearer tokens required: ${parts.join('; ')}`,
    secrets: (tokens ?? []).map((t) => t.token),
  };
}
