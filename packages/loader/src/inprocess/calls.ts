/**
 * The calls of one in-process plugin instance that are waiting for an answer, keyed by job id.
 *
 * New jobs collect in an outbox that is handed to the addon once per microtask turn, so a burst of calls
 * crosses into native code (and wakes the instance thread) once. The addon reports finished jobs in batches
 * (`settle`), or to a lone call's own short spin (`collect`). A time limit or an AbortSignal rejects the
 * promise at once; the job is dropped if it has not started yet. A call already inside the plugin cannot be interrupted in-process: it runs to its end on the
 * instance's thread, and its late answer (already copied and released with the plugin's `entropic_free`) is
 * discarded here.
 */
import type { PluginError } from '../errors.js';
import { armCall, type CallLimits, cancelledAlready, STOPPED, type StopCode } from '../guard.js';
import { InFlight } from '../in-flight.js';
import { SPIN_MICROS, SpinPolicy } from '../spin.js';
import type { JobKind, NativePlugin } from './binding.js';

/** Builds the error a call stopped early is rejected with. */
export type StopReason = (code: StopCode, what: string, tool: string | undefined) => PluginError;

/** Turns the text an execute answered into the value its promise resolves with (throws when invalid). */
export type AnswerDecoder = (text: string | null, tool: string) => unknown;

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Clears the time limit and the signal listener, when the call had either. */
  disarm: (() => void) | undefined;
  /** Set for an execute: the tool it calls; its answer goes through the decoder. */
  tool: string | undefined;
  /** Answered or stopped: no longer in the table. */
  done: boolean;
}

const NO_LIMITS: CallLimits = { timeoutMs: 0 };

const SEPARATOR = '\0';

export class CallTable {
  readonly #waiting = new InFlight<Waiting>();
  readonly #native: NativePlugin;
  readonly #stopped: StopReason;
  readonly #decode: AnswerDecoder;
  #nextId = 1;
  /** Jobs not yet handed to the addon: (id, kind) pairs and their two strings, each NUL-ended. */
  #heads: number[] = [];
  #text = '';
  #flushQueued = false;
  /** A call in the outbox was stopped: leave it out at the next flush. */
  #outboxStale = false;
  readonly #spin = new SpinPolicy();

  /** `connect` receives the batch callback and returns the instance it belongs to. */
  constructor(
    connect: (settle: (list: unknown[]) => void) => NativePlugin,
    stopped: StopReason,
    decode: AnswerDecoder,
  ) {
    this.#native = connect(this.#settle);
    this.#stopped = stopped;
    this.#decode = decode;
  }

  /**
   * Queues a job for the instance thread and resolves with its payload; with `tool` (an execute) it resolves
   * with the decoded answer instead.
   */
  start(
    kind: JobKind,
    first: string,
    second: string,
    limits: CallLimits = NO_LIMITS,
    tool?: string,
  ): Promise<unknown> {
    if (cancelledAlready(limits)) {
      return Promise.reject(this.#stopped('ENTROPIC_ERROR_CANCELLED', STOPPED.cancelledEarly, tool));
    }
    const id = this.#nextId;
    this.#nextId = id === 0xffffffff ? 1 : id + 1;
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { resolve, reject, disarm: undefined, tool, done: false };
      if (this.#waiting.size === 0) this.#native.ref();
      this.#waiting.push(id, waiting);
      this.#heads.push(id, kind);
      this.#text += first + SEPARATOR + second + SEPARATOR;
      if (!this.#flushQueued) {
        this.#flushQueued = true;
        queueMicrotask(this.flush);
      }
      const disarm = armCall(limits, (code, why) => this.#stop(id, code, why));
      if (!waiting.done) waiting.disarm = disarm;
      else disarm?.(); // the cancel hook fired at once
    });
  }

  /** Hands every queued job to the addon now (the synchronous path calls this first to keep the order). */
  readonly flush = (): void => {
    this.#flushQueued = false;
    if (this.#heads.length === 0) return;
    let heads = this.#heads;
    let text = this.#text;
    this.#heads = [];
    this.#text = '';
    if (this.#outboxStale) {
      this.#outboxStale = false;
      [heads, text] = this.#withoutStopped(heads, text);
      if (heads.length === 0) return;
    }
    if (this.#native.submit(new Uint32Array(heads), text)) {
      if (this.#spin.wanted(this.#waiting.size)) this.#collect();
      return;
    }
    for (let i = 0; i < heads.length; i += 2) {
      this.#stop(heads[i] as number, 'ENTROPIC_ERROR_CANCELLED', STOPPED.dropped);
    }
  };

  /** Spins briefly for the answers of a lone call (see spin.ts), settling them here when they come. */
  #collect(): void {
    const list = this.#spin.timed(() => this.#native.collect(SPIN_MICROS));
    this.#spin.record(list !== undefined);
    if (list !== undefined) this.#settle(list);
  }

  readonly #settle = (list: unknown[]): void => {
    for (let i = 0; i < list.length; i += 2) {
      const id = list[i] as number;
      const waiting = this.#waiting.take(id);
      if (waiting === undefined) continue; // timed out or cancelled: the late answer is dropped
      this.#forget(waiting);
      const payload = list[i + 1];
      if (payload instanceof Error) waiting.reject(payload);
      else if (waiting.tool === undefined) waiting.resolve(payload);
      else this.#answer(waiting, payload as string | null);
    }
  };

  #answer(waiting: Waiting, text: string | null): void {
    let value: unknown;
    try {
      value = this.#decode(text, waiting.tool as string);
    } catch (error) {
      waiting.reject(error);
      return;
    }
    waiting.resolve(value);
  }

  #withoutStopped(heads: number[], text: string): [number[], string] {
    const parts = text.split(SEPARATOR);
    const keptHeads: number[] = [];
    let keptText = '';
    for (let i = 0; i < heads.length; i += 2) {
      if (!this.#waiting.has(heads[i] as number)) continue;
      keptHeads.push(heads[i] as number, heads[i + 1] as number);
      keptText += parts[i] + SEPARATOR + parts[i + 1] + SEPARATOR;
    }
    return [keptHeads, keptText];
  }

  #stop(id: number, code: StopCode, what: string): void {
    const waiting = this.#waiting.take(id);
    if (waiting === undefined) return;
    this.#forget(waiting);
    if (this.#heads.length > 0) this.#outboxStale = true;
    this.#native.cancel(id);
    waiting.reject(this.#stopped(code, what, waiting.tool));
  }

  #forget(waiting: Waiting): void {
    waiting.done = true;
    waiting.disarm?.();
    if (this.#waiting.size === 0) this.#native.unref();
  }
}
