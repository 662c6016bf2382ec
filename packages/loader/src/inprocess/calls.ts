/**
 * The calls of one in-process plugin instance that are waiting for an answer, keyed by job id.
 *
 * The addon reports finished jobs in batches (`settle`). A time limit or an AbortSignal rejects the promise at
 * once; the job is dropped if it has not started yet. A call already inside the plugin cannot be interrupted
 * in-process: it runs to its end on the instance's thread, and its late answer (already copied and released
 * with the plugin's `entropic_free`) is discarded here.
 */
import { PluginError } from '../errors.js';
import type { JobKind, NativePlugin } from './binding.js';

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** Says why a call stopped early: (code, what) → the error to reject with. */
export type StopReason = (
  code: 'ENTROPIC_ERROR_TIMEOUT' | 'ENTROPIC_ERROR_CANCELLED',
  what: string,
) => PluginError;

export interface CallLimits {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly stopped: StopReason;
}

const NO_LIMITS: CallLimits = { timeoutMs: 0, stopped: (code, what) => new PluginError(code, what) };

export class CallTable {
  readonly #waiting = new Map<number, Waiting>();
  #native: NativePlugin | undefined;
  #nextId = 1;

  /** The batch callback handed to the addon: a flat list of (id, payload) pairs. */
  readonly settle = (list: unknown[]): void => {
    for (let i = 0; i < list.length; i += 2) {
      const id = list[i] as number;
      const waiting = this.#waiting.get(id);
      if (waiting === undefined) continue; // timed out or cancelled: the late answer is dropped
      this.#forget(id, waiting);
      const payload = list[i + 1];
      if (payload instanceof Error) waiting.reject(payload);
      else waiting.resolve(payload);
    }
  };

  attach(native: NativePlugin): void {
    this.#native = native;
  }

  /** Queues a job on the instance thread and resolves with its payload. */
  start(
    kind: JobKind,
    first: string,
    second: string | undefined,
    limits: CallLimits = NO_LIMITS,
  ): Promise<unknown> {
    const native = this.#native as NativePlugin;
    const { signal, timeoutMs } = limits;
    if (signal?.aborted)
      return Promise.reject(limits.stopped('ENTROPIC_ERROR_CANCELLED', 'was cancelled before it started'));
    const id = this.#nextId;
    this.#nextId = id === 0xffffffff ? 1 : id + 1;
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { resolve, reject, timer: undefined, signal, onAbort: undefined };
      if (timeoutMs > 0) {
        waiting.timer = setTimeout(
          () =>
            this.#stop(id, limits.stopped('ENTROPIC_ERROR_TIMEOUT', `did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }
      if (signal !== undefined) {
        waiting.onAbort = () => this.#stop(id, limits.stopped('ENTROPIC_ERROR_CANCELLED', 'was cancelled'));
        signal.addEventListener('abort', waiting.onAbort, { once: true });
      }
      if (this.#waiting.size === 0) native.ref();
      this.#waiting.set(id, waiting);
      if (!native.submit(id, kind, first, second)) {
        this.#forget(id, waiting);
        reject(limits.stopped('ENTROPIC_ERROR_CANCELLED', 'came after the instance was destroyed'));
      }
    });
  }

  #stop(id: number, error: PluginError): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    this.#forget(id, waiting);
    this.#native?.cancel(id);
    waiting.reject(error);
  }

  #forget(id: number, waiting: Waiting): void {
    this.#waiting.delete(id);
    if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    if (waiting.onAbort !== undefined) waiting.signal?.removeEventListener('abort', waiting.onAbort);
    if (this.#waiting.size === 0) this.#native?.unref();
  }
}
