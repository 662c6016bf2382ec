/**
 * The server's rate limits from serve's plan: the rules of `--rate-limit` / `mcp.rate_limits`, the buckets in
 * Redis when `--redis` is on (waited for at most `--redis-timeout`), and store failures reported at most once
 * every 10 s with how many there were, so that a Redis outage does not write a line per request.
 */

import type { RateLimitOptions, RateLimitStore } from '@entropic-mcp/server';
import type { ServePlan } from '../config/plan.js';

const REPORT_EVERY_MS = 10_000;

export function rateLimitsOf(
  plan: ServePlan,
  store: RateLimitStore | undefined,
  report: (text: string) => void,
): { rateLimits?: RateLimitOptions } {
  const rules = plan.rateLimits;
  if (rules === undefined) return {};
  let last = Number.NEGATIVE_INFINITY;
  let unreported = 0;
  const failure = rules.onStoreFailure ?? 'open';
  const rateLimits: RateLimitOptions = {
    ...rules,
    ...(store === undefined ? {} : { store, storeTimeoutMs: plan.redisTimeoutMs ?? 3000 }),
    onError: (error) => {
      unreported++;
      const now = Date.now();
      if (now - last < REPORT_EVERY_MS) return;
      last = now;
      const count = unreported === 1 ? '' : ` (${unreported} failures since the last report)`;
      unreported = 0;
      const what = failure === 'open' ? 'requests are served unlimited' : 'requests are refused with 503';
      report(
        `entropic-mcp serve: rate limits: the store failed, ${what}: ${(error as Error)?.message ?? String(error)}${count}\n`,
      );
    },
  };
  return { rateLimits };
}
