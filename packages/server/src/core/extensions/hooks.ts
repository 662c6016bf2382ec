/**
 * Running the request hooks: every `before` in order (waiting for those that return a promise; the
 * first refusal ends the request), and every `after` once the request ended. No hook, no cost.
 */

import { isThenable } from '../later.js';
import type { RequestContext, RequestHook, RequestOutcome } from './types.js';

/** Run the `before` hooks from `index` on; undefined when all ran synchronously, else a promise. */
export function runBefore(
  hooks: readonly RequestHook[],
  request: RequestContext,
  index = 0,
): PromiseLike<void> | undefined {
  for (let i = index; i < hooks.length; i++) {
    const out = hooks[i]?.before?.(request);
    if (isThenable(out)) return out.then(() => runBefore(hooks, request, i + 1));
  }
  return undefined;
}

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
