/**
 * Telling the request hooks how a request ended (their `before` functions run as middleware layers,
 * see middleware/chain.ts). No hook, no cost.
 */

import type { RequestContext, RequestHook, RequestOutcome } from '../extension-types.js';

/** Tell every `after` hook how the request ended; a hook that throws is skipped. */
export function runAfter(
  hooks: readonly RequestHook[],
  request: RequestContext,
  outcome: RequestOutcome,
): void {
  for (const hook of hooks) {
    try {
      hook.after?.(request, outcome);
    } catch {
      // An observer must not change what happened to the request.
    }
  }
}
