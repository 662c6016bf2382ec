/**
 * One running plugin host process: spawns it, reads its first frame (ready or load error), writes request
 * frames in batches (one pipe write per event-loop turn, so calls that came in on many connections share it),
 * hands answer frames back by id, and reports
 * how the process ended. Policy (restarts, timeouts, what a crash means for each call) is the caller's.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../errors.js';
import { loadRefusal } from '../guard.js';
import { isLone, SPIN_MICROS, SpinPolicy } from '../spin.js';
import { FrameReader, type Op, RequestBatch, Status } from './frames.js';
import { spinReader } from './spin-read.js';

export interface HostReady {
  readonly name: string;
  readonly apiVersion: number;
}

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
  /** How many requests are written (or queued to be) and not answered yet. */
  inFlight(): number;
}

export interface HostSpawnOptions {
  readonly hostPath: string;
  readonly pluginPath: string;
  readonly memoryLimitMb: number | undefined;
  readonly onStderr: ((text: string) => void) | undefined;
}

const STDERR_TAIL = 4096;

export class HostProcess {
  readonly ready: Promise<HostReady>;
  #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #queue = new RequestBatch();
  #flushScheduled = false;
  #stderr = '';
  #killed = false;
  #exited = false;
  #spawnError: Error | undefined;
  #referenced = true;
  #events: HostEvents | undefined;
  #settleReady: { resolve(r: HostReady): void; reject(e: Error): void } | undefined;
  readonly #options: HostSpawnOptions;
  readonly #reader: FrameReader;
  readonly #spin = new SpinPolicy();
  readonly #spinRead = spinReader();

  constructor(options: HostSpawnOptions) {
    this.#options = options;
    const args =
      options.memoryLimitMb === undefined ? [] : ['--memory-limit-mb', String(options.memoryLimitMb)];
    this.#child = spawn(options.hostPath, [...args, options.pluginPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.ready = new Promise<HostReady>((resolve, reject) => {
      this.#settleReady = { resolve, reject };
    });
    const reader = new FrameReader((id, status, buf, start, end) => this.#frame(id, status, buf, start, end));
    this.#reader = reader;
    this.#child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (text: string) => this.#onStderr(text));
    this.#child.stdin.on('error', () => {}); // EPIPE when the host died; reported through 'close'
    this.#child.on('error', (error) => {
      this.#spawnError = error;
    });
    this.#child.on('close', (exitCode, signal) => this.#close(exitCode, signal));
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

  send(id: number, op: Op, parts: readonly string[]): void {
    this.#queue.add(id, op, parts);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(this.#flushBound);
    }
  }

  /** Keeps the event loop alive while calls are in flight, and lets it end while the host is idle. */
  setReferenced(on: boolean): void {
    if (on === this.#referenced || this.#exited) return;
    this.#referenced = on;
    const handles = [this.#child, this.#child.stdout, this.#child.stderr, this.#child.stdin] as unknown as {
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

  readonly #flushBound = (): void => this.#flush();

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#queue.length === 0 || this.#exited) return;
    const inFlight = this.#events?.inFlight() ?? 0;
    const lone = isLone(inFlight);
    this.#child.stdin.write(this.#queue.take(lone));
    if (lone && this.#spinRead !== undefined && this.#spin.wanted(inFlight)) this.#collect(this.#spinRead);
  }

  /** Waits briefly for the answers of a lone call on this thread (see spin.ts), reading them here. */
  #collect(read: (fd: number, micros: number) => Buffer | undefined): void {
    const fd = (this.#child.stdout as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (fd === undefined || fd < 0) return;
    const chunk = this.#spin.timed(() => read(fd, SPIN_MICROS));
    this.#spin.record(chunk !== undefined);
    if (chunk !== undefined) this.#reader.push(chunk);
  }

  #onStderr(text: string): void {
    this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
    if (this.#options.onStderr !== undefined) this.#options.onStderr(text);
    else process.stderr.write(text);
  }

  #frame(id: number, status: number, buf: Buffer, start: number, end: number): void {
    if (id !== 0 || this.#settleReady === undefined) {
      this.#events?.onAnswer(id, status, buf, start, end);
      return;
    }
    const payload = buf.subarray(start, end);
    const settle = this.#settleReady;
    this.#settleReady = undefined;
    const path = this.#options.pluginPath;
    if (status === Status.ready && payload.length >= 4) {
      settle.resolve({ apiVersion: payload.readInt32LE(0), name: payload.toString('utf8', 4) });
    } else if (status === Status.loadError && payload.length >= 4) {
      const text = payload.toString('utf8', 4);
      const nul = text.indexOf('\0');
      const message = nul < 0 ? text : text.slice(nul + 1);
      settle.reject(
        loadRefusal(PluginError.fromValue(payload.readInt32LE(0), message, { path }), path) as Error,
      );
    } else {
      settle.reject(
        new PluginError(
          HOST_ERROR_CODES.unavailable,
          `${describePlugin(path)}: bad first frame from the host`,
          { path },
        ),
      );
    }
  }

  #close(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.#exited = true;
    const exit: HostExit = {
      exitCode,
      signal,
      killed: this.#killed,
      stderr: this.#stderr,
      ...(this.#spawnError === undefined ? {} : { error: this.#spawnError }),
    };
    if (this.#settleReady !== undefined) {
      const settle = this.#settleReady;
      this.#settleReady = undefined;
      settle.reject(startFailure(this.#options.pluginPath, exit));
    }
    this.#events?.onExit(exit);
  }
}

/** How a host that ended is described in messages: `was killed by SIGSEGV`, `exited with status 3`. */
export function describeExit(exit: HostExit): string {
  if (exit.error !== undefined) return `could not be started (${exit.error.message})`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
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
