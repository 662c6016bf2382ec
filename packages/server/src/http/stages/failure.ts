/**
 * The one exit for failures: whatever a stage threw (a refusal, shared state that could not be used,
 * a body too large or already read, anything unexpected) becomes its response here, and what the
 * operator must know is reported through `onError`. Bodies never carry the text of unexpected errors.
 */

import { BodyConsumedError, BodyTooLargeError } from '../seam/body-errors.js';
import { Refused } from '../seam/refusal.js';
import { sendRefusal, sendUnavailable } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import { SharedStateUnavailable } from '../state/shared-state.js';

export function answerFailure(res: ResponseSink, failure: unknown, report: (error: unknown) => void): void {
  if (failure instanceof Refused) {
    if (failure.reason !== undefined) report(failure.reason);
    sendRefusal(res, failure.refusal);
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
