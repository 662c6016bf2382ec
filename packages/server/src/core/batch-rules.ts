/** The 2025-03-26 JSON-RPC batch rules for every transport: when a batch is refused as a whole, and in which words. */

import { answerableById, classify, Kind } from './envelope.js';
import type { RequestId } from './handler-types.js';
import { batchesAllowed } from './protocol.js';

/** The one wording of each refusal of a whole batch (answered -32600 with id null). */
export const BATCH_REFUSALS = {
  protocol:
    'Invalid Request: JSON-RPC batches are only allowed in a session that negotiated protocol 2025-03-26',
  empty: 'Invalid Request: empty batch',
  initialize: 'Invalid Request: initialize must not be part of a batch',
  notAMessage: 'Invalid Request: a batch element is not a JSON-RPC 2.0 message',
} as const;

/** The verdict on a batch: refused as a whole, or served with these request ids to answer. */
export type BatchVerdict = { refusal: string } | { refusal?: undefined; requestIds: RequestId[] };

/**
 * Checks a batch against the rules. `version` is the protocol the session negotiated (undefined
 * before initialize or without a session). An element that is invalid but carries a usable request id
 * (a bad `params`, say) is not a refusal of the batch: it is answered by its id like any request.
 */
export function checkBatch(version: string | undefined, messages: readonly unknown[]): BatchVerdict {
  if (!batchesAllowed(version)) return { refusal: BATCH_REFUSALS.protocol };
  if (messages.length === 0) return { refusal: BATCH_REFUSALS.empty };
  const requestIds: RequestId[] = [];
  for (const item of messages) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { refusal: BATCH_REFUSALS.notAMessage };
    }
    const m = item as Record<string, unknown>;
    const kind = classify(m);
    const answerable = kind === Kind.Request || (kind === Kind.Invalid && answerableById(m));
    if (kind === Kind.Invalid && !answerable) return { refusal: BATCH_REFUSALS.notAMessage };
    if (answerable && m.method === 'initialize') return { refusal: BATCH_REFUSALS.initialize };
    if (answerable) requestIds.push(m.id as RequestId);
  }
  return { requestIds };
}
