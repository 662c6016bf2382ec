/**
 * The one exit for failures: whatever a stage threw (a refusal, the core's refusal of a request before
 * it ran, shared state that could not be used, a body too large or already read, anything unexpected)
 * becomes its response here, and what the operator must know is reported through `onError`. Bodies never
 * carry the text of unexpected errors.
 */

import { McpError, retryAfterOf } from '../../core/errors.js';
import { RateLimited } from '../../core/rate-limit/refusal.js';
import { BodyConsumedError, BodyTooLargeError } from '../seam/body-errors.js';
import { Refused } from '../seam/refusal.js';
import { sendRefusal, sendUnavailable, writeJsonError } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import { SharedStateUnavailable } from '../state/shared-state.js';

/** `id`: the request's, for a refusal of the core (which carries none). */
export function answerFailure(
  res: ResponseSink,
  failure: unknown,
  report: (error: unknown) => void,
  id: unknown = null,
): void {
  if (failure instanceof Refused) {
    if (failure.reason !== undefined) report(failure.reason);
    sendRefusal(res, failure.refusal);
  } else if (failure instanceof RateLimited) {
    // Over its rate limit (counted, and the store's failures reported, where the core decided).
    const headers = { 'retry-after': String(failure.retryAfterSeconds) };
    writeJsonError(res, 429, failure.code, failure.message, headers, id, failure.data);
  } else if (failure instanceof McpError && retryAfterOf({ error: failure }) !== undefined) {
    // The rate limiter's store could not be used and it fails closed: unavailable for a while.
    sendUnavailable(res, failure.message, id);
  } else if (failure instanceof SharedStateUnavailable) {
    // Unreachable, or refusing writes (Redis out of memory, a read-only replica): 503 with Retry-After.
    report(failure);
    sendUnavailable(res, failure.message);
  } else if (failure instanceof BodyTooLargeError) {
    sendRefusal(res, { status: 413, code: -32000, message: failure.message });
  } else if (failure instanceof BodyConsumedError) {
    sendRefusal(res, { status: 400, code: -32000, message: failure.message });
  } else {
    report(failure);
    sendRefusal(res, { status: 500, code: -32603, message: 'Internal error' });
  }
}
