/**
 * The rate limit of a single request, taken before its response starts: over the limit it is refused
 * with 429 and Retry-After (a `Refused`, written by `answerFailure`). The server's limiter decides (the same one the
 * session asks for batches, stdio and in memory); what it let through is marked so it is not counted twice.
 */

import { classify, Kind } from '../../core/envelope.js';
import { ErrorCode, UNAVAILABLE_RETRY_AFTER_S } from '../../core/errors.js';
import type { RateAnswer } from '../../core/rate-limit/limiter.js';
import { RateLimited } from '../../core/rate-limit/refusal.js';
import type { RateCaller } from '../../core/rate-limit/types.js';
import { rateLimitRefusal, refuse } from '../seam/refusal.js';
import type { HttpRequest } from '../seam/view.js';
import type { Caller } from './caller.js';

/** What the endpoint uses of the server's rate limiter (`McpServer.rateLimiter`). */
export interface EndpointRateLimiter {
  check(
    method: string,
    params: Record<string, unknown> | undefined,
    caller: RateCaller,
  ): RateAnswer | Promise<RateAnswer>;
  admit(message: object): void;
}

/** Take `message`'s token; throws the refusal (a `RateLimited`, or unavailable when failing closed). */
export async function takeRateLimit(
  limiter: EndpointRateLimiter,
  req: HttpRequest,
  message: unknown,
  caller: Caller,
): Promise<void> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
  const m = message as { method?: unknown; params?: unknown };
  if (classify(m as Record<string, unknown>) !== Kind.Request) return;
  const params =
    typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : undefined;
  const answer = await limiter.check(m.method as string, params, {
    principal: caller.principal,
    client: caller.client,
    sessionId: req.header('mcp-session-id'),
    // A POST without a session or a known address is its own connection, as it is to the core.
    connectionKey: crypto.randomUUID(),
    auth: caller.auth,
  });
  if (answer === undefined) {
    limiter.admit(message);
    return;
  }
  const id = (message as { id?: unknown }).id;
  if (answer instanceof RateLimited) refuse({ ...rateLimitRefusal(answer), id });
  // The store failed and the limiter fails closed: unavailable, as when shared state cannot be used.
  const headers = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) };
  refuse({ status: 503, code: ErrorCode.ServerBusy, message: answer.message, headers, id }, answer);
}
