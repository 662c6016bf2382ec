/**
 * Waiting in tests: `waitFor` polls a condition until a deadline and fails with a message naming what it waited
 * for; `sleep` is for pacing a load, never for letting something happen.
 */

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Polls `check` (every 50 ms) until it returns true; throws `timed out after N ms waiting for WHAT` when
 * `timeoutMs` pass first. A check that throws fails the wait with its error.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
