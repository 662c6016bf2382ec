/**
 * One running plugin host process: spawns it, reads its first frame (ready or load error), writes bursts of
 * request text, hands answer frames back by id, and reports how the process ended. Policy (when to write,
 * restarts, timeouts, what a crash means for each call) is the caller's.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { MaskedStream, SecretMasker } from '@entropic-mcp/server';
import { spinReader } from '../addon/spin-read.js';
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { SPIN_MICROS, SpinPolicy } from '../base/spin.js';
import { LeftoverReaper, type Leftovers } from '../sandbox/leftovers.js';
import { sandboxExitCause } from '../sandbox/plan.js';
import { type Ready, ReadyWait } from '../wire/decode.js';
import { cancelFrame, FrameReader, SPIN_HINT } from '../wire/frames.js';
import { spawnHost } from './spawn-host.js';

export interface HostExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when this side asked for the kill. */
  readonly killed: boolean;
  readonly stderr: string;
  readonly error?: Error;
}

export interface HostEvents {
  /** An answer; its payload is `buf[start, end)`, to be read before returning. */
  onAnswer(id: number, status: number, buf: Buffer, start: number, end: number): void;
  onExit(exit: HostExit): void;
}

export interface HostSpawnOptions {
  readonly hostPath: string;
  readonly pluginPath: string;
  readonly memoryLimitMb: number | undefined;
  readonly onStderr: ((text: string) => void) | undefined;
  /** What the host writes to stderr goes through a stream of this masker first (the tail and `onStderr` alike). */
  readonly masker: Pick<SecretMasker, 'stream'>;
  /** The host's OS sandbox (ENTROPIC_HOST_SANDBOX), if any. */
  readonly sandboxEnv?: string | undefined;
  /** How to find what its plugin left running when it ends (sandbox `processes`), and its pids cgroup. */
  readonly leftovers?: Leftovers | undefined;
}

const STDERR_TAIL = 4096;

export class HostProcess {
  readonly ready: Promise<Ready>;
  readonly #child: ChildProcess;
  readonly #input: Writable;
  readonly #output: Readable;
  readonly #cancel: Writable;
  readonly #stderrStream: Readable;
  /** What must end before the exit is reported: the child, and the answer pipe when it is ours (spawn-host.ts). */
  #endsLeft: number;
  #exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #stderr = '';
  readonly #masked: MaskedStream;
  #killed = false;
  #exited = false;
  #spawnError: Error | undefined;
  #referenced = true;
  #events: HostEvents | undefined;
  readonly #readyWait: ReadyWait;
  readonly #options: HostSpawnOptions;
  readonly #reader: FrameReader;
  readonly #spin = new SpinPolicy();
  readonly #spinRead = spinReader();
  #reaper: LeftoverReaper | undefined;

  constructor(options: HostSpawnOptions) {
    this.#options = options;
    const args =
      options.memoryLimitMb === undefined ? [] : ['--memory-limit-mb', String(options.memoryLimitMb)];
    const host = spawnHost(options.hostPath, [...args, options.pluginPath], options.sandboxEnv);
    this.#child = host.child;
    this.#input = host.input;
    this.#output = host.output;
    this.#cancel = host.cancel;
    this.#stderrStream = host.stderr;
    this.#masked = options.masker.stream();
    this.#endsLeft = host.ownOutput ? 2 : 1;
    this.#readyWait = new ReadyWait(options.pluginPath);
    this.ready = this.#readyWait.promise;
    const reader = new FrameReader((id, status, buf, start, end) => this.#frame(id, status, buf, start, end));
    this.#reader = reader;
    this.#output.on('data', (chunk: Buffer) => reader.push(chunk));
    this.#stderrStream.setEncoding('utf8');
    this.#stderrStream.on('data', (text: string) => this.#onStderr(this.#masked.write(text)));
    this.#stderrStream.on('end', () => this.#onStderr(this.#masked.end()));
    this.#input.on('error', () => {}); // EPIPE when the host died; reported through 'close'
    this.#cancel.on('error', () => {}); // the same
    this.#child.on('error', (error) => {
      this.#spawnError = error;
    });
    // Children the plugin left (sandbox `processes`) hold the host's pipes open: the close waits for them.
    if (options.leftovers !== undefined) {
      const reaper = new LeftoverReaper(options.leftovers, this.#child);
      this.#reaper = reaper;
      this.ready.then(
        () => reaper.ready(),
        () => {},
      );
    }
    this.#child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      this.#exitStatus = { code, signal };
      this.#ended();
    });
    if (host.ownOutput) {
      this.#output.on('error', () => {}); // a read error ends the stream; the exit says what happened
      this.#output.on('close', () => this.#ended());
    }
  }

  /** Receives answers and the exit from now on. */
  attach(events: HostEvents): void {
    this.#events = events;
  }

  get alive(): boolean {
    return !this.#exited && !this.#killed;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /**
   * Writes a burst of request text. With few calls in flight (`inFlight`, these included), now and in the bursts
   * before, the burst is marked lone: the host stays awake for the next one, and this thread waits briefly for
   * the answers (see spin.ts).
   */
  write(text: string, inFlight: number): void {
    if (this.#exited) return;
    const lone = this.#spin.lone(inFlight);
    this.#input.write(lone ? text + SPIN_HINT : text);
    if (lone && this.#spinRead !== undefined && this.#spin.wanted()) this.#collect(this.#spinRead);
  }

  /** Tells the host that call `id` is cancelled (plugin context): the running call reads it from its context. */
  cancel(id: number): void {
    if (!this.#exited) this.#cancel.write(cancelFrame(id));
  }

  /** Keeps the event loop alive while calls are in flight, and lets it end while the host is idle. */
  setReferenced(on: boolean): void {
    if (on === this.#referenced || this.#exited) return;
    this.#referenced = on;
    const handles = [this.#child, this.#output, this.#stderrStream, this.#input, this.#cancel] as unknown as {
      ref(): void;
      unref(): void;
    }[];
    for (const h of handles) {
      if (on) h.ref();
      else h.unref();
    }
  }

  kill(): void {
    if (this.#exited || this.#killed) return;
    this.#killed = true;
    this.#child.kill('SIGKILL');
  }

  /** Waits briefly for the answers of a lone call on this thread (see spin.ts), reading them here. */
  #collect(read: (fd: number, micros: number) => Buffer | undefined): void {
    const fd = (this.#output as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (fd === undefined || fd < 0) return;
    const chunk = this.#spin.timed(() => read(fd, SPIN_MICROS));
    this.#spin.record(chunk !== undefined);
    if (chunk !== undefined) this.#reader.push(chunk);
  }

  /** `text` is masked already (whole lines, but for the last words of a stream or a line too long to hold). */
  #onStderr(text: string): void {
    if (text === '') return;
    this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
    if (this.#options.onStderr !== undefined) this.#options.onStderr(text);
    else process.stderr.write(text);
  }

  #frame(id: number, status: number, buf: Buffer, start: number, end: number): void {
    if (!this.#readyWait.take(id, status, buf, start, end))
      this.#events?.onAnswer(id, status, buf, start, end);
  }

  /** One of the things the exit waits for ended; the last one reports it. */
  #ended(): void {
    if (--this.#endsLeft > 0 || this.#exitStatus === undefined) return;
    this.#close(this.#exitStatus.code, this.#exitStatus.signal);
  }

  #close(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.#exited = true;
    this.#onStderr(this.#masked.end()); // what is held, if the stream has not ended yet
    this.#reaper?.closed();
    // Node destroys a child's own stdio streams when it exits; our request pipe would stay open (one fd per host).
    this.#input.destroy();
    this.#cancel.destroy();
    const exit: HostExit = {
      exitCode,
      signal,
      killed: this.#killed,
      stderr: this.#stderr,
      ...(this.#spawnError === undefined ? {} : { error: this.#spawnError }),
    };
    if (this.#readyWait.waiting) this.#readyWait.fail(startFailure(this.#options.pluginPath, exit));
    this.#events?.onExit(exit);
  }
}

/** How a host that ended is described in messages: `was killed by SIGSEGV`, `exited with status 3`. */
export function describeExit(exit: HostExit): string {
  if (exit.error !== undefined) return `could not be started (${exit.error.message})`;
  if (exit.signal !== null) {
    const cause = exit.killed ? undefined : sandboxExitCause(exit.signal);
    return `was killed by ${exit.signal}${cause === undefined ? '' : ` (${cause})`}`;
  }
  return `exited with status ${exit.exitCode}`;
}

function startFailure(path: string, exit: HostExit): PluginError {
  const tail = exit.stderr.trim();
  const code = exit.error === undefined ? HOST_ERROR_CODES.crashed : HOST_ERROR_CODES.unavailable;
  return new PluginError(
    code,
    `${describePlugin(path)}: the plugin host ${describeExit(exit)} while loading it${tail ? `; stderr: ${tail}` : ''}`,
    {
      path,
      ...(exit.signal === null ? {} : { signal: exit.signal }),
      ...(exit.exitCode === null ? {} : { exitCode: exit.exitCode }),
      stderr: exit.stderr,
      cause: exit.error,
    },
  );
}
