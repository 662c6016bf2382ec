/**
 * When a lone plugin call waits for its answer by spinning on the JS thread (yielding the core meanwhile):
 * right after it was handed to the instance thread (in-process) or written to the host's pipe (isolated), with
 * at most SPIN_MAX_IN_FLIGHT calls in flight, for up to SPIN_MICROS. Going to sleep and being woken costs more
 * CPU and latency than a fast plugin takes. (The host process does the same on its side: after answering it
 * looks for the next request for a moment before it sleeps; see native/host/channel.c.) After a
 * spin that found nothing (a slow tool, a busy machine) the next submissions go without one: 1, then 2, 4...
 * up to SPIN_MAX_PAUSE after each further miss in a row, so a slow tool costs a spin only now and then.
 */

export const SPIN_MICROS = 50;
const SPIN_MAX_IN_FLIGHT = 2;
const SPIN_MAX_PAUSE = 256;

/** True when `inFlight` calls are few enough that their callers wait on each answer. */
export function isLone(inFlight: number): boolean {
  return inFlight <= SPIN_MAX_IN_FLIGHT;
}

export class SpinPolicy {
  /** Submissions left before the next spin, and the pause after the next miss. */
  #pause = 0;
  #backoff = 1;

  /** True when a submission leaving `inFlight` calls in flight should spin for an answer now. */
  wanted(inFlight: number): boolean {
    if (!isLone(inFlight)) return false;
    if (this.#pause === 0) return true;
    this.#pause--;
    return false;
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
