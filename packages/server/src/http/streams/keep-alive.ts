/**
 * Keep-alive comments on open SSE streams, in both eras, from one timer. A comment keeps proxies from
 * closing a quiet stream, and finds a dead one: behind a proxy (HAProxy) a client that left leaves the
 * proxy's connection to this server open until the server writes into it; the proxy then closes it,
 * and the stream lets its connection go (legacy GET streams, POST streams that wait long, 2026-07-28
 * streams alike).
 */

/** A stream with a connection to keep alive: it writes one comment when asked, if it still can. */
export interface Pingable {
  ping(): void;
}

export class KeepAlive {
  readonly #targets = new Set<Pingable>();
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;

  /** `ms` between comments; 0 writes none. A ping that throws is reported and stops no other. */
  constructor(
    readonly ms: number,
    onError?: (error: unknown) => void,
  ) {
    this.#onError = onError;
  }

  add(target: Pingable): void {
    if (this.ms === 0) return;
    this.#targets.add(target);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.ms);
      this.#timer.unref?.();
    }
  }

  remove(target: Pingable): void {
    if (!this.#targets.delete(target) || this.#targets.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stop: no more comments to anyone. */
  release(): void {
    this.#targets.clear();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    for (const target of [...this.#targets]) {
      try {
        target.ping();
      } catch (error) {
        this.#onError?.(error);
      }
    }
  }
}

/** For streams made without a keep-alive: none is ever written. */
export const NO_KEEP_ALIVE = new KeepAlive(0);
