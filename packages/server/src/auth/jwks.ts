/**
 * A remote JWKS with bounds on what is fetched and parsed: jose fetches and caches the key set, through
 * a fetch that reads at most `maxBytes` of the body, gives up after `timeoutMs`, and refuses a set of
 * more than `maxKeys` keys before jose ever sees it. A hostile or broken key server then costs a
 * bounded read and parse, never a blocked event loop for every other client.
 */

import type { JWTVerifyGetKey } from 'jose';
import { McpServerError } from '../core/errors.js';
import { readCappedText } from './capped-body.js';

/** The jose module. */
export type Jose = typeof import('jose');

let jose: Promise<Jose> | undefined;

/** jose, imported on first use: about 46 modules that a server without JWT bearer auth never needs to load. */
export function loadJose(): Promise<Jose> {
  jose ??= import('jose');
  return jose;
}

export interface JwksLimits {
  /** Largest key-set document read, in bytes. */
  readonly maxBytes: number;
  /** Most keys a key set may hold. */
  readonly maxKeys: number;
  /** Time allowed for one fetch, body included (ms). */
  readonly timeoutMs: number;
}

export const DEFAULT_JWKS_LIMITS: JwksLimits = { maxBytes: 256 * 1024, maxKeys: 100, timeoutMs: 5_000 };

/** A key set refused by a limit; its message names the limit and the option that sets it. */
export class JwksRefused extends McpServerError<'JWKS_REFUSED'> {
  override readonly name = 'JwksRefused';

  constructor(message: string) {
    super('JWKS_REFUSED', message);
  }
}

/** jose's remote key set over `url`, fetched within `limits`. */
export function boundedRemoteJWKSet(
  { createRemoteJWKSet, customFetch }: Jose,
  url: URL,
  limits: JwksLimits,
): JWTVerifyGetKey {
  const where = `the JWKS at ${url.href}`;
  const boundedFetch = async (input: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (response.status !== 200) return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > limits.maxBytes) {
      void response.body?.cancel().catch(() => {});
      throw tooLarge(where, limits.maxBytes);
    }
    const text = await readCappedText(response.body, limits.maxBytes, () => tooLarge(where, limits.maxBytes));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new JwksRefused(`${where} is not JSON`);
    }
    const keys = (parsed as { keys?: unknown } | null)?.keys;
    if (Array.isArray(keys) && keys.length > limits.maxKeys) {
      throw new JwksRefused(
        `${where} holds ${keys.length} keys, more than the ${limits.maxKeys} allowed (maxJwksKeys)`,
      );
    }
    // jose reads only the status and the JSON of what this returns.
    return { status: 200, json: async () => parsed } as unknown as Response;
  };
  return createRemoteJWKSet(url, {
    timeoutDuration: limits.timeoutMs,
    [customFetch]: boundedFetch as never,
  });
}

function tooLarge(where: string, maxBytes: number): JwksRefused {
  return new JwksRefused(`${where} is larger than ${maxBytes} bytes (maxJwksBytes)`);
}
