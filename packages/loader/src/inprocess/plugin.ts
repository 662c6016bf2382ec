/**
 * `isolation: 'none'`: the plugin runs inside this Node process, on a thread of its own (see
 * `native/addon/plugin_instance.h`), which speaks the same wire as a host process. Calls into one instance
 * never overlap; instances run in parallel; the JS thread and the libuv threadpool never wait on a plugin. A
 * crash in the plugin takes the whole process down: use it for plugins you trust, when the few microseconds a
 * call saves matter.
 *
 * Calls made in one turn cross into native code together, as one burst of request text (one crossing, one
 * wake-up of the instance thread); the thread's answers come back as one buffer of frames. A time limit or a
 * cancellation rejects a call at once; the call is dropped if it has not started yet. A call already inside the
 * plugin cannot be interrupted in-process: it runs to its end on the instance's thread, and its late answer is
 * discarded.
 */

import type { Addon, NativePlugin } from '../addon/binding.js';
import type { PluginError } from '../base/errors.js';
import { closedError, STOPPED, stoppedError } from '../base/guard.js';
import { SPIN_MICROS, SpinPolicy } from '../base/spin.js';
import type { Isolation, Plugin, PluginAnswer } from '../base/types.js';
import { parseAnswer } from '../base/validate.js';
import { argsToJson, checkToolName, type ResolvedLoadOptions } from '../hosting/checks.js';
import { HostedPlugin } from '../hosting/hosted.js';
import { type Call, CallTable, settle } from '../wire/calls.js';
import { answerTooLarge, type Ready, ReadyWait } from '../wire/decode.js';
import { FrameReader, SPIN_HINT } from '../wire/frames.js';
import { track, untrack } from './exit.js';

/** A plugin hosted in-process; it adds a synchronous call path to the `Plugin` surface. */
export interface InProcessPlugin extends Plugin {
  /**
   * Calls `execute` on the JS thread and returns the validated answer. It BLOCKS the JS thread: first until
   * every call queued on this instance has finished, then for the whole call. Meant for hot loops over fast
   * tools; it has no time limit and cannot be cancelled.
   */
  executeSync(tool: string, args: unknown): PluginAnswer;
}

export class InProcessHost extends HostedPlugin implements InProcessPlugin {
  readonly isolation: Isolation = 'none';
  readonly #table: CallTable;
  readonly #native: NativePlugin;
  readonly #reader: FrameReader;
  readonly #readyWait: ReadyWait;
  /** Calls handed over and not settled yet: while there are any, the instance keeps the event loop alive. */
  #live = 0;
  #flushQueued = false;
  readonly #spin = new SpinPolicy();

  constructor(addon: Addon, path: string, options: ResolvedLoadOptions) {
    super(path, options);
    this.#table = new CallTable(this.site);
    this.#readyWait = new ReadyWait(path);
    this.#reader = new FrameReader((id, status, buf, start, end) => this.#frame(id, status, buf, start, end));
    this.#native = new addon.NativePlugin(path, (frames) => this.#answers(frames));
    this.#native.ref(); // until the load is answered
    track(this.#native);
  }

  get pending(): number {
    return this.#live;
  }

  protected start(): Promise<Ready> {
    return this.#readyWait.promise;
  }

  protected submit(call: Call): void {
    this.#table.queue(call);
    if (this.#live++ === 0) this.#native.ref();
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(this.#flush);
  }

  protected stop(call: Call, error: PluginError): void {
    settle(call, error);
    // Still in the outbox: it is left out of the next burst. Queued on the thread: dropped there (and if it was
    // the last call the thread had, the calls held meanwhile go now). Running: its late answer is discarded.
    if (call.id !== 0 && this.#native.cancel(call.id)) {
      this.#table.forget(call);
      if (this.#table.mayTakeBurst) this.#scheduleFlush();
    }
    this.#settled(1);
  }

  protected async closed(): Promise<void> {
    this.#native.shutdown();
    untrack(this.#native);
  }

  protected async abort(error: unknown): Promise<void> {
    // A load that timed out may still be inside the plugin; the destroy then runs after it, unawaited.
    const closing = this.close().catch(() => {});
    if ((error as PluginError).code !== 'ENTROPIC_ERROR_TIMEOUT') await closing;
  }

  executeSync(tool: string, args: unknown): PluginAnswer {
    const name = checkToolName(tool);
    const json = argsToJson(args);
    if (this.closing) throw closedError({ path: this.path, plugin: this.site.plugin, tool: name });
    this.#send(); // the calls made before it run first, held or not
    const text = this.#native.executeSync(name, json);
    const max = this.site.maxAnswerBytes ?? 0;
    // UTF-16 units never outnumber UTF-8 bytes: only a text that may be over the limit is measured.
    if (max > 0 && text !== null && text.length * 3 > max) {
      const bytes = Buffer.byteLength(text);
      if (bytes > max) throw answerTooLarge(this.site, name, bytes, max);
    }
    return parseAnswer(text, { path: this.path, plugin: this.name, tool: name });
  }

  /**
   * At the end of the calls made together: hands them to the instance thread as one burst, unless it has
   * MAX_OPEN_BURSTS already; then they wait for the older one's last answer and leave together (as in the
   * isolated mode).
   */
  readonly #flush = (): void => {
    this.#flushQueued = false;
    if (this.#table.mayTakeBurst) this.#send();
  };

  /** Hands every queued call to the instance thread now, as one burst. */
  #send(): void {
    const inFlight = this.#table.size;
    const text = this.#table.takeBurst();
    if (text === '') return;
    const lone = this.#spin.lone(inFlight);
    if (this.#native.submit(lone ? text + SPIN_HINT : text)) {
      if (lone && this.#spin.wanted()) this.#collect();
      return;
    }
    // The instance shut down (the process is exiting): nothing sent will be answered.
    const dropped = this.#table.drainSent().filter((call) => !call.settled);
    for (const call of dropped) {
      settle(
        call,
        stoppedError(
          { path: this.path, plugin: this.site.plugin, tool: call.tool },
          'ENTROPIC_ERROR_CANCELLED',
          STOPPED.dropped,
        ),
      );
    }
    this.#settled(dropped.length);
  }

  /** Spins briefly for the answers of a lone call (see spin.ts), reading them here when they come. */
  #collect(): void {
    const frames = this.#spin.timed(() => this.#native.collect(SPIN_MICROS));
    this.#spin.record(frames !== undefined);
    if (frames !== undefined) this.#answers(frames);
  }

  #answers(frames: Buffer): void {
    this.#reader.push(frames);
    if (this.#table.mayTakeBurst) this.#send();
  }

  #frame(id: number, status: number, buf: Buffer, start: number, end: number): void {
    if (this.#readyWait.take(id, status, buf, start, end)) {
      if (this.#live === 0) this.#native.unref(); // the load is answered
      return;
    }
    if (this.#table.answer(id, status, buf, start, end)) this.#settled(1);
  }

  #settled(count: number): void {
    this.#live -= count;
    if (this.#live === 0 && count > 0) this.#native.unref();
  }
}
