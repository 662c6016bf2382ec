/** The default rate-limit store: token buckets in this process's memory, on an injected clock. */

import type { RateLimitStore, RateRule, RateVerdict } from './types.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Takes between sweeps of the buckets that refilled completely (they hold nothing a new one would not). */
const SWEEP_EVERY = 4096;

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #buckets = new Map<string, Bucket & { full: number }>();
  readonly #clock: () => number;
  #takes = 0;

  /** `clock` gives milliseconds (default `Date.now`); a test passes a fake one. */
  constructor(options: { clock?: () => number } = {}) {
    this.#clock = options.clock ?? Date.now;
  }

  take(key: string, rule: Required<RateRule>): RateVerdict {
    const now = this.#clock();
    if (++this.#takes % SWEEP_EVERY === 0) this.#sweep(now);
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: rule.burst, at: now, full: 0 };
      this.#buckets.set(key, bucket);
    }
    const verdict = takeToken(bucket, rule, now);
    bucket.full = bucket.at + ((rule.burst - bucket.tokens) * 1000) / rule.rate;
    return verdict;
  }

  /** Buckets held now (for tests of the sweep). */
  get size(): number {
    return this.#buckets.size;
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) if (bucket.full <= now) this.#buckets.delete(key);
  }
}

/**
 * The token bucket itself: refill for the time since `bucket.at` (a clock that went back refills
 * nothing), then take one token or say how long until there is one. Changes `bucket`.
 */
export function takeToken(bucket: Bucket, rule: Required<RateRule>, now: number): RateVerdict {
  if (now > bucket.at) {
    bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.at) * rule.rate) / 1000);
    bucket.at = now;
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true, retryAfterMs: 0 };
  }
  return { allowed: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) * 1000) / rule.rate) };
}
