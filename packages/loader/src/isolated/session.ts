/**
 * The calls of one isolated plugin across host restarts.
 *
 * - Calls made in one turn of the event loop leave together, in one pipe write (many in flight; the host serves
 *   them in order), except that a burst leaves as soon as it holds EARLY_BURST calls (see there). While the host
 *   has as many bursts as CallTable.mayTakeBurst allows, calls wait here and leave together the moment the older
 *   one is answered (see #answer). While a host starts, calls wait in order and go out after the replay
 *   (`configure`, `set_working_dir`).
 * - A crash (signal or exit) fails every call in flight with `ENTROPIC_PLUGIN_CRASHED`; the next call starts a
 *   new host.
 * - A call stopped early by its time limit or cancellation is failed at once. If it is the one the host is
 *   running, the host is killed (SIGKILL); if it is queued behind others, the host is killed when it reaches the
 *   head; if it was not written yet, it is never sent. After such a kill, the calls queued behind the stopped
 *   one never started, so they are sent again to a new host; a call that may have been running when the kill
 *   landed is failed instead (it may have run partly).
 * - A plugin with the plugin context is told instead: the host reads the call's id on its cancel pipe, the
 *   call's context says it is cancelled, and a plugin that polls returns early, so its host keeps running. Only
 *   if the host is still on that call after the grace period (`cancelGraceMs`) is it killed as above. A call
 *   cancelled while queued is skipped by the host when it comes up.
 */
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { countHostExit, countHostRestart } from '../base/telemetry.js';
import { Call, type CallReply, CallTable, settle } from '../wire/calls.js';
import { type AnswerSite, opName, type Ready } from '../wire/decode.js';
import { Op } from '../wire/frames.js';
import { describeExit, type HostExit, HostProcess, type HostSpawnOptions } from './host-process.js';

/**
 * A burst that holds this many calls leaves at once instead of at the end of the turn, so the host starts on it
 * while this process parses the rest of what arrived. Sending a whole window at the end of the turn makes the
 * client, this process and the host take turns on it, each idle while another works (bench README, "Where the
 * time goes": at 64 in flight over stdio it lifted the isolated path from about 0.55× to 0.75× the TS echo). The
 * in-process mode gained nothing from it, and one call at a time never reaches it.
 */
export const EARLY_BURST = 32;

/** What to send to a new host before anything else, read when the host starts. */
export type Replay = () => { op: Op; first: string }[];

export class HostSession {
  #host: HostProcess | undefined;
  /** The plugin defines the plugin context's entry point (known once a host said it was ready). */
  #context = false;
  /** The call the grace period runs for, and its timer. */
  #graceFor: Call | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  readonly #graceMs: number;
  #starting = false;
  #flushScheduled = false;
  #sendQueued = false;
  readonly #table: CallTable;
  #exitWaiters: (() => void)[] = [];
  readonly #site: AnswerSite;
  readonly #spawn: HostSpawnOptions;
  readonly #replay: Replay;

  constructor(spawn: HostSpawnOptions, site: AnswerSite, replay: Replay, graceMs: number) {
    this.#graceMs = graceMs;
    this.#spawn = spawn;
    this.#site = site;
    this.#table = new CallTable(site);
    this.#replay = replay;
  }

  /** Calls not settled yet. */
  get pending(): number {
    return this.#table.size;
  }

  /** Starts the first host and waits for its ready frame (or the load error). */
  async start(): Promise<Ready> {
    const host = this.#launch();
    const ready = await host.ready;
    this.#context = ready.context;
    this.#starting = false;
    this.#refresh();
    return ready;
  }

  submit(call: Call): void {
    this.#table.queue(call);
    if (!this.#host?.alive || this.#starting) {
      this.#restart();
      return;
    }
    if (this.#table.queuedCount >= EARLY_BURST) this.#send();
    this.#scheduleFlush();
  }

  /**
   * Fails a call now (time limit, cancellation). A plugin with the plugin context is told, and its host killed
   * only if it is still on the call after the grace period; any other plugin's host is killed at once when the
   * call is the one it is running.
   */
  stop(call: Call, error: Error): void {
    if (call.settled) return;
    settle(call, error);
    if (!this.#context) {
      if (this.#table.head() === call) this.#host?.kill();
      return;
    }
    if (call.id !== 0) this.#host?.cancel(call.id);
    if (this.#table.head() === call) this.#startGrace(call);
  }

  /** Kills the host if it is still on `call` (stopped early) when the grace period ends. */
  #startGrace(call: Call): void {
    if (this.#graceFor === call) return;
    clearTimeout(this.#graceTimer);
    this.#graceFor = call;
    this.#graceTimer = setTimeout(() => {
      this.#graceFor = undefined;
      if (this.#table.head() === call) this.#host?.kill();
    }, this.#graceMs);
    this.#graceTimer.unref();
  }

  /** Kills the host, if any, and resolves once it is gone. */
  async kill(): Promise<void> {
    if (this.#host === undefined) return;
    const gone = new Promise<void>((resolve) => this.#exitWaiters.push(resolve));
    this.#host.setReferenced(true);
    this.#host.kill();
    await gone;
  }

  /** Resolves when the current host (if any) has exited. */
  exited(): Promise<void> {
    if (this.#host === undefined) return Promise.resolve();
    this.#host.setReferenced(true);
    return new Promise((resolve) => this.#exitWaiters.push(resolve));
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(this.#flushBound);
  }

  readonly #flushBound = (): void => {
    this.#flushScheduled = false;
    this.#send();
  };

  /**
   * Writes every queued call to the host, as one burst, unless it has as many bursts as CallTable.mayTakeBurst
   * allows: then they wait here and leave together when the older one is answered. A call stopped while it waits
   * here is simply never sent.
   */
  #send(): void {
    const host = this.#host;
    if (host === undefined || !host.alive || this.#starting || !this.#table.mayTakeBurst) return;
    const inFlight = this.#table.size;
    const text = this.#table.takeBurst();
    if (text === '') return;
    host.setReferenced(true);
    host.write(text, inFlight);
  }

  #launch(): HostProcess {
    const host = new HostProcess(this.#spawn);
    this.#host = host;
    this.#starting = true;
    host.attach({
      onAnswer: (id, status, buf, start, end) => this.#answer(id, status, buf, start, end),
      onExit: (exit) => this.#exit(host, exit),
    });
    return host;
  }

  #restart(): void {
    if (this.#starting || this.#host !== undefined) return;
    const waiting = this.#table.unqueue();
    const first = waiting[0];
    if (first !== undefined && first.op === Op.close) {
      // Nothing is loaded, so there is nothing to destroy.
      settle(first, undefined);
      waiting.shift();
    }
    if (waiting.length === 0) return;
    this.#table.requeue(waiting);
    countHostRestart(this.#site.plugin);
    const host = this.#launch();
    host.ready
      .then((ready) => {
        this.#context = ready.context;
        return this.#runReplay(host);
      })
      .then(
        () => {
          this.#starting = false;
          this.#scheduleFlush();
          this.#refresh();
        },
        (error: Error) => {
          this.#starting = false;
          host.kill();
          for (const call of this.#table.unqueue()) settle(call, call.op === Op.close ? undefined : error);
        },
      );
  }

  async #runReplay(host: HostProcess): Promise<void> {
    for (const step of this.#replay()) {
      await new Promise((resolve, reject) => {
        const reply: CallReply = { answered: resolve, failed: reject };
        host.write(this.#table.sendNow(new Call(step.op, reply, undefined, step.first)), 2);
      });
    }
  }

  #refresh(): void {
    this.#host?.setReferenced(this.#starting || this.#table.size > 0);
  }

  #answer(id: number, status: number, buf: Buffer, start: number, end: number): void {
    this.#table.answer(id, status, buf, start, end);
    const head = this.#table.head();
    if (head?.settled) {
      // The host reached a call that was stopped early: it skips it (plugin context), or it is killed.
      if (this.#context) this.#startGrace(head);
      else this.#host?.kill();
    }
    if (this.#table.size === 0) this.#refresh();
    else if (this.#table.mayTakeBurst) this.#sendSoon();
  }

  /**
   * Sends the held calls once the host's answers read with this one are handled: not from inside the frame
   * reader, which a lone burst's spin would enter again. In a microtask rather than at the end of the turn: with
   * the per-message client, waiting for the turn's end cost 1.4 µs more CPU a call (server and host) in an
   * interleaved comparison.
   */
  #sendSoon(): void {
    if (this.#sendQueued) return;
    this.#sendQueued = true;
    queueMicrotask(this.#sendBound);
  }

  readonly #sendBound = (): void => {
    this.#sendQueued = false;
    this.#send();
  };

  #exit(host: HostProcess, exit: HostExit): void {
    if (host !== this.#host) return;
    this.#host = undefined;
    countHostExit(this.#site.plugin, exit);
    clearTimeout(this.#graceTimer);
    this.#graceFor = undefined;
    // The host runs its calls one at a time, in order: the first unanswered one was running when it ended;
    // those behind it never started, so they go to the next host (a crash costs one call, never its queue).
    const calls = this.#table.drainSent();
    const head = calls[0];
    if (head !== undefined && !head.settled) {
      const why = exit.killed ? ' after an earlier call was abandoned; it may have run partly' : '';
      settle(head, head.op === Op.close ? undefined : this.#crash(exit, head, why));
    }
    this.#table.requeue(calls.slice(1).filter((c) => !c.settled));
    for (const wake of this.#exitWaiters.splice(0)) wake();
    if (!this.#starting) this.#restart();
  }

  #crash(exit: HostExit, call: Call, why: string): PluginError {
    const during = call.tool === undefined ? opName(call.op) : `execute of tool "${call.tool}"`;
    const tail = exit.stderr.trim().split('\n').slice(-5).join('\n');
    const path = this.#site.path;
    const plugin = this.#site.plugin;
    const message = `${describePlugin(path, plugin)}: the plugin host ${describeExit(exit)} during ${during}${why}${
      tail ? `; its stderr ended with: ${tail}` : ''
    }`;
    return new PluginError(HOST_ERROR_CODES.crashed, message, {
      path,
      plugin,
      tool: call.tool,
      ...(exit.signal === null ? {} : { signal: exit.signal }),
      ...(exit.exitCode === null ? {} : { exitCode: exit.exitCode }),
      stderr: exit.stderr,
    });
  }
}
