/**
 * When a lone plugin call waits for its answer by spinning on the JS thread (yielding the core meanwhile):
 * right after it was handed to the instance thread (in-process) or written to the host's pipe (isolated), with
 * at most SPIN_MAX_IN_FLIGHT calls in flight now and in the bursts just before, for up to SPIN_MICROS. Going to sleep and being woken costs more
 * CPU and latency than a fast plugin takes. (The host process does the same on its side: after answering it
 * looks for the next request for a moment before it sleeps; see native/host/channel.c.) After a
 * spin that found nothing (a slow tool, a busy machine) the next submissions go without one: 1, then 2, 4...
 * up to SPIN_MAX_PAUSE after each further miss in a row, so a slow tool costs a spin only now and then.
 *
 * Few calls in flight at this moment is not enough. A client that keeps a window of calls in flight and writes
 * one message per `write` (as the SDK clients do) lets its window's first request arrive alone: waiting awake
 * for that call's answer, on both sides, took the cores the rest of the window needed. So a burst is lone only
 * while the peak of calls in flight, halved at each burst, stays at SPIN_MAX_IN_FLIGHT or under: after a burst
 * of 64 calls the next four are not lone, however small.
 *
 * And over HTTP a busy server often has one plugin call in flight at a time
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

/** One instance's spin policy: which bursts are lone, and when a lone burst's answer is worth spinning for. */
export class SpinPolicy {
  /** Submissions left before the next spin, and the pause after the next miss. */
  #pause = 0;
  #backoff = 1;
  /** The most calls in flight at a burst, halved at each later burst. */
  #peak = 0;
  readonly #load: LoopLoad;

  constructor(load: LoopLoad = sharedLoad) {
    this.#load = load;
  }

  /**
   * Called once per burst, with the calls in flight once it is sent (its own included): true when its callers
   * wait on each answer (few calls in flight now and in the bursts before it) on a loop with time to spare. The
   * instance then looks for the next request awake after answering (SPIN_HINT).
   */
  lone(inFlight: number): boolean {
    const peak = Math.max(inFlight, this.#peak / 2);
    this.#peak = peak;
    return peak <= SPIN_MAX_IN_FLIGHT && !this.#load.busy();
  }

  /** True when a lone burst (see `lone`) should spin for its answer now: not while backing off after misses. */
  wanted(): boolean {
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
