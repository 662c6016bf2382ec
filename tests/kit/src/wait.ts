/**
 * Waiting in tests. `waitFor` polls a condition until a deadline and fails with a message naming what it
 * waited for: the one way a test waits for something to happen. The other waits here are named for what
 * they are, so that a reader (and a grep) tells them from a sleep that hopes something happened:
 * `holdFor` is a pause that is itself the subject (a handler that is slow on purpose, a fault held open),
 * `quietPeriod` is the window of a negative check ("nothing arrives within X"), `nextTurn` lets the
 * callbacks already queued on the event loop run.
 */

const POLL_MS = 20;

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/**
 * Polls `check` (every 20 ms) until it returns true; throws `timed out after N ms waiting for WHAT` when
 * the deadline (default 20 s) passes first. A check that throws fails the wait with its error. Both
 * argument orders are accepted: `waitFor(check, what, timeoutMs)` and `waitFor(check, timeoutMs, what)`.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what?: string,
  timeoutMs?: number,
): Promise<void>;
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs?: number,
  what?: string,
): Promise<void>;
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  first?: string | number,
  second?: string | number,
): Promise<void> {
  const what = typeof first === 'string' ? first : typeof second === 'string' ? second : 'condition';
  const timeoutMs = typeof first === 'number' ? first : typeof second === 'number' ? second : 20_000;
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(POLL_MS);
  }
}

/**
 * Polls `produce` until it returns a value other than undefined, and returns it; fails like `waitFor`.
 */
export async function waitForValue<T>(
  produce: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  let value: T | undefined;
  await waitFor(
    async () => {
      value = await produce();
      return value !== undefined;
    },
    what,
    timeoutMs,
  );
  return value as T;
}

/**
 * A pause that is the subject of the test, not a wait for something: a handler that takes `ms` to be slow,
 * a fault kept in place for `ms`, a load paced at one step per `ms`. Never use it to let something happen.
 */
export function holdFor(ms: number): Promise<void> {
  return pause(ms);
}

/**
 * The window of a negative check: resolves after `ms`, in which something that must not happen has had
 * its chance to. Assert afterwards that it did not. A loaded machine makes the check weaker, never flaky.
 */
export function quietPeriod(ms: number): Promise<void> {
  return pause(ms);
}

/** Resolves once the callbacks already queued on the event loop (timers due, I/O, immediates) have run. */
export function nextTurn(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}

/** Settles as `promise` does, or rejects `timed out after N ms waiting for WHAT` when it takes longer. */
export function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
