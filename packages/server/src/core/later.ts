/**
 * A handler result that arrives later, without a promise. A handler may return a `Later` and settle it once
 * with `resolve` or `reject` when its answer comes (from a callback, a native addon, another process), and the
 * core waits on it through one listener object instead of a promise chain: no promise, no closure and no
 * microtask per request, which counts when answers arrive in bursts of thousands a second (the C plugin
 * bridge). Anything else can still `await` a `Later`: `then` behaves as a promise's.
 */

/** What waits on a `Later`: told once, synchronously, how it settled. */
export interface LaterListener {
  onSettled(ok: boolean, value: unknown): void;
}

const PENDING = 0;
const RESOLVED = 1;
const REJECTED = 2;

export class Later<T = unknown> implements PromiseLike<T> {
  #state = PENDING;
  #value: unknown;
  #listener: LaterListener | undefined;
  #promise: Promise<T> | undefined;
  #settlePromise: LaterListener | undefined;

  /** Settles with `value`; later calls of `resolve` or `reject` are ignored. */
  resolve(value: T): void {
    this.#settle(RESOLVED, value);
  }

  /** Settles with `error`; later calls of `resolve` or `reject` are ignored. */
  reject(error: unknown): void {
    this.#settle(REJECTED, error);
  }

  /** True once settled. */
  get done(): boolean {
    return this.#state !== PENDING;
  }

  /**
   * Registers the one listener (the core's): called when the `Later` settles, or at once when it already has.
   * A second listener replaces the first.
   */
  listen(listener: LaterListener): void {
    if (this.#state === PENDING) this.#listener = listener;
    else listener.onSettled(this.#state === RESOLVED, this.#value);
  }

  // biome-ignore lint/suspicious/noThenProperty: a Later is awaitable on purpose, like a promise
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    if (this.#promise === undefined) {
      this.#promise = new Promise<T>((resolve, reject) => {
        const settlePromise = {
          onSettled: (ok: boolean, value: unknown) => (ok ? resolve(value as T) : reject(value)),
        };
        if (this.#state === PENDING) this.#settlePromise = settlePromise;
        else settlePromise.onSettled(this.#state === RESOLVED, this.#value);
      });
    }
    return this.#promise.then(onfulfilled, onrejected);
  }

  #settle(state: number, value: unknown): void {
    if (this.#state !== PENDING) return;
    this.#state = state;
    this.#value = value;
    const listener = this.#listener;
    const settlePromise = this.#settlePromise;
    this.#listener = undefined;
    this.#settlePromise = undefined;
    listener?.onSettled(state === RESOLVED, value);
    settlePromise?.onSettled(state === RESOLVED, value);
  }
}

/** True for a promise or any object with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
