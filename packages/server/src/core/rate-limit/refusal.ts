/**
 * The one wording of a rate-limit refusal: a JSON-RPC error with a stable code (-32029) naming the limit and
 * the wait, `data.retryAfterMs` for programs. Over HTTP the same refusal is a 429 with `Retry-After`.
 */

import { ErrorCode, McpError, unavailable } from '../errors.js';
import type { RateRule } from './types.js';

export class RateLimited extends McpError {
  constructor(
    /** What the limit is on: `tool "echo"`, `resources/read`, `requests`. */
    readonly what: string,
    readonly rule: Required<RateRule>,
    readonly retryAfterMs: number,
  ) {
    super(
      ErrorCode.RateLimited,
      `Rate limit exceeded: ${what} allows ${rule.rate} a second (burst ${rule.burst}) per caller; retry in ${retryAfterMs} ms`,
      { retryAfterMs, limit: { rate: rule.rate, burst: rule.burst } },
    );
  }

  /** Whole seconds to wait, rounded up (HTTP's `Retry-After`). */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}

/** The store failed and the limiter fails closed: the request is refused as unavailable (503). */
export function storeUnavailable(cause: unknown): McpError {
  return unavailable('the rate-limit store could not be used', cause);
}
