/**
 * Holds back the head of a POST's SSE answer for a short while. An answer that arrives within the hold
 * (a tool served by another process, a quick database call) then leaves in one write with its head and
 * a Content-Length, instead of the head now and a chunked body later. When the hold runs out the head
 * and the priming event go out, so a client of a slow request still learns of its stream (and an event
 * id to resume from) early. One timer serves every held stream.
 */

/** What a held stream offers: send whatever is still held back (a no-op once its answer left). */
export interface Flushable {
  flush(): void;
}

export class HeadHold {
  /** Streams held since the last tick. */
  #fresh: Flushable[] = [];
  /** Streams held for at least one full tick: flushed at the next one. */
  #aged: Flushable[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #tick = (): void => this.#onTick();
  readonly #onError: ((error: unknown) => void) | undefined;

  /**
   * `ms` is the shortest hold; a stream is flushed between `ms` and `2 * ms` after it was held. A flush
   * that throws is reported to `onError` and never keeps the others from leaving.
   */
  constructor(
    readonly ms: number,
    onError?: (error: unknown) => void,
  ) {
    this.#onError = onError;
  }

  /** Flush `stream` after the hold (at once when the hold is 0). */
  hold(stream: Flushable): void {
    if (this.ms === 0) {
      stream.flush();
      return;
    }
    this.#fresh.push(stream);
    if (this.#timer === undefined) this.#arm();
  }

  /** Flush everything still held, now, and stop the timer. */
  release(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const all = [...this.#aged, ...this.#fresh];
    this.#aged = [];
    this.#fresh = [];
    this.#flushAll(all);
  }

  #arm(): void {
    this.#timer = setTimeout(this.#tick, this.ms);
    this.#timer.unref?.();
  }

  #onTick(): void {
    const due = this.#aged;
    this.#aged = this.#fresh;
    this.#fresh = [];
    if (this.#aged.length > 0) this.#arm();
    else this.#timer = undefined;
    this.#flushAll(due);
  }

  #flushAll(streams: readonly Flushable[]): void {
    for (const stream of streams) {
      try {
        stream.flush();
      } catch (error) {
        this.#onError?.(error);
      }
    }
  }
}

/** The hold of a transport configured without one: every head leaves at once. */
export const NO_HOLD = new HeadHold(0);
