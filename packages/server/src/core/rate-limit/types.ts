/**
 * Rate limits: the shapes an operator configures (rules, the caller key, the store) and the interface a
 * shared store implements. The in-memory store is the default; `@entropic-mcp/redis` has a shared one.
 */

/** A token bucket: `rate` requests a second on average, up to `burst` at once. */
export interface RateRule {
  /** Tokens added a second (may be fractional: 0.5 = one request every two seconds). Must be > 0. */
  readonly rate: number;
  /** Most tokens the bucket holds (the largest burst). Default: `rate` rounded up, at least 1. */
  readonly burst?: number;
}

/** Who is asking, as the limiter sees it; `key` turns it into the bucket's owner. */
export interface RateCaller {
  /** The authenticated principal (HTTP with an auth hook), else undefined. */
  readonly principal: string | undefined;
  /** The client as HTTP counts it: `p:<principal>` when authenticated, else `a:<address>`; undefined on stdio. */
  readonly client: string | undefined;
  /** The 2025 session id, when the request came in one. */
  readonly sessionId: string | undefined;
  /**
   * A key of the connection the request came in on (one per stdio process or 2025 session); undefined for a
   * connection that carries one exchange (stateless HTTP, a 2026-07-28 POST), which tells no caller apart.
   */
  readonly connectionKey: string | undefined;
  /** What the auth hook returned (HTTP). */
  readonly auth: unknown;
}

export interface RateLimitOptions {
  /** The bucket of every request of a caller that no `tools` or `methods` rule names. */
  readonly default?: RateRule;
  /** A bucket per tool (of each caller), by tool name: `tools/call` of that tool takes from it alone. */
  readonly tools?: Readonly<Record<string, RateRule>>;
  /** A bucket per method (of each caller), by method: `resources/read`, `tools/list`… */
  readonly methods?: Readonly<Record<string, RateRule>>;
  /**
   * How an unauthenticated caller is told apart: `'address'` (default: the HTTP client's address, else its
   * session, else its connection) or `'session'` (its 2025 session, else its address, else its connection).
   * An authenticated caller is always its principal. A request none of these tells apart (no principal,
   * address or session, one exchange on its connection) is not limited. A function decides alone:
   * undefined = not limited.
   */
  readonly key?: 'address' | 'session' | ((caller: RateCaller) => string | undefined);
  /** Where buckets live. Default: this process's memory (on `ServerOptions.clock`). */
  readonly store?: RateLimitStore;
  /**
   * What happens when the store fails or does not answer within `storeTimeoutMs`: `'open'` (default)
   * serves the request and reports the failure; `'closed'` refuses it as unavailable (-32000, HTTP 503).
   */
  readonly onStoreFailure?: 'open' | 'closed';
  /** The longest wait for the store's answer. Default 1000 ms. */
  readonly storeTimeoutMs?: number;
  /** Told of every store failure (a timeout, a refused write). */
  readonly onError?: (error: unknown) => void;
}

/** A store's answer: whether a token was taken, and if not, how long until one will be there. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** Milliseconds until the next token (0 when allowed). */
  readonly retryAfterMs: number;
}

/**
 * Where buckets live. `take` takes one token from bucket `key` (full at first, `rule.burst` tokens,
 * refilled at `rule.rate` a second) on the store's own clock, atomically for every process sharing it.
 */
export interface RateLimitStore {
  take(key: string, rule: Required<RateRule>): RateVerdict | PromiseLike<RateVerdict>;
}
