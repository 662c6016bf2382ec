/** Caching hints of 2026-07-28 results (`ttlMs`, `cacheScope`): the options and their defaults. */

export type CacheScope = 'public' | 'private';

export interface CacheHint {
  /** How long (ms) a client may reuse the result without asking again. */
  ttlMs?: number;
  /** `public`: shared caches may keep it; `private`: only this client. */
  cacheScope?: CacheScope;
}

/** The methods whose results carry caching hints. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

export interface CacheOptions extends CacheHint {
  /** Per-method hints over the defaults above. */
  methods?: Partial<Record<CacheableMethod, CacheHint>>;
}

/** The built-in hints: lists and discovery for a minute, resource contents not at all; private. */
const DEFAULTS: Record<CacheableMethod, Required<CacheHint>> = {
  'server/discover': { ttlMs: 60_000, cacheScope: 'private' },
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

export type ResolvedCache = Record<string, Required<CacheHint>>;

/** Merge the caching options over the defaults; a bad value throws naming the option. */
export function resolveCache(options: CacheOptions | undefined): ResolvedCache {
  const out: ResolvedCache = {};
  for (const [method, base] of Object.entries(DEFAULTS)) {
    const specific = options?.methods?.[method as CacheableMethod];
    const ttlMs = specific?.ttlMs ?? options?.ttlMs ?? base.ttlMs;
    const cacheScope = specific?.cacheScope ?? options?.cacheScope ?? base.cacheScope;
    if (!Number.isInteger(ttlMs) || ttlMs < 0) {
      throw new TypeError(`ServerOptions.cache: ttlMs for ${method} must be a non-negative integer`);
    }
    if (cacheScope !== 'public' && cacheScope !== 'private') {
      throw new TypeError(`ServerOptions.cache: cacheScope for ${method} must be "public" or "private"`);
    }
    out[method] = { ttlMs, cacheScope };
  }
  return out;
}
