/**
 * When a lone plugin call waits for its answer by spinning on the JS thread (yielding the core meanwhile):
 * right after it was handed to the instance thread (in-process) or written to the host's pipe (isolated), with
 * at most SPIN_MAX_IN_FLIGHT calls in flight, for up to SPIN_MICROS. Going to sleep and being woken costs more
 * CPU and latency than a fast plugin takes. (The host process does the same on its side: after answering it
 * looks for the next request for a moment before it sleeps; see native/host/channel.c.) After a
 * spin that found nothing (a slow tool, a busy machine) the next submissions go without one: 1, then 2, 4...
 * up to SPIN_MAX_PAUSE after each further miss in a row, so a slow tool costs a spin only now and then.
 *
 * Few calls in flight is not enough: over HTTP a busy server often has one plugin call in flight at a time
 * while many clients wait. So neither side spins while the event loop has been busy for more than
 * BUSY_LOOP_SHARE of the last LOAD_WINDOW_MS (its utilization, read at most once per window, less the time the
 * spins themselves took): a loop that is that busy has other work for the core, and a waiting call costs it
 * nothing.
 */

import { performance } from 'node:perf_hooks';

export const SPIN_MICROS = 50;
const SPIN_MAX_IN_FLIGHT = 2;
const SPIN_MAX_PAUSE = 256;
const LOAD_WINDOW_MS = 5;
const BUSY_LOOP_SHARE = 0.85;

type Utilization = ReturnType<typeof performance.eventLoopUtilization>;

/** Whether the event loop was busy over the last window; `now` and `utilization` are swappable for tests. */
export class LoopLoad {
  #checkedAt = Number.NEGATIVE_INFINITY;
  #last: Utilization | undefined;
  #busy = false;
  /** Milliseconds spent spinning since the last reading. */
  #spun = 0;
  readonly #now: () => number;
  readonly #utilization: (since?: Utilization) => Utilization;

  constructor(
    now: () => number = () => performance.now(),
    utilization: (since?: Utilization) => Utilization = (since) => performance.eventLoopUtilization(since),
  ) {
    this.#now = now;
    this.#utilization = utilization;
  }

  busy(): boolean {
    const now = this.#now();
    if (now - this.#checkedAt < LOAD_WINDOW_MS) return this.#busy;
    const total = this.#utilization();
    if (this.#last !== undefined) {
      const { active, idle } = this.#utilization(this.#last);
      this.#busy = active + idle > 0 && (active - this.#spun) / (active + idle) > BUSY_LOOP_SHARE;
    }
    this.#last = total;
    this.#checkedAt = now;
    this.#spun = 0;
    return this.#busy;
  }

  /** Runs a spin and counts its time apart: spinning is waiting, not work. */
  timed<T>(spin: () => T): T {
    const from = this.#now();
    try {
      return spin();
    } finally {
      this.#spun += this.#now() - from;
    }
  }
}

const sharedLoad = new LoopLoad();

/** True when `inFlight` calls are few enough that their callers wait on each answer, on a loop with time to spare. */
export function isLone(inFlight: number, load: LoopLoad = sharedLoad): boolean {
  return inFlight <= SPIN_MAX_IN_FLIGHT && !load.busy();
}

export class SpinPolicy {
  /** Submissions left before the next spin, and the pause after the next miss. */
  #pause = 0;
  #backoff = 1;
  readonly #load: LoopLoad;

  constructor(load: LoopLoad = sharedLoad) {
    this.#load = load;
  }

  /** True when a submission leaving `inFlight` calls in flight should spin for an answer now. */
  wanted(inFlight: number): boolean {
    if (!isLone(inFlight, this.#load)) return false;
    if (this.#pause === 0) return true;
    this.#pause--;
    return false;
  }

  /** Runs one spin, its time counted as waiting (see LoopLoad). */
  timed<T>(spin: () => T): T {
    return this.#load.timed(spin);
  }

  /** What the spin found. */
  record(found: boolean): void {
    if (found) {
      this.#backoff = 1;
      return;
    }
    this.#pause = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, SPIN_MAX_PAUSE);
  }
}
