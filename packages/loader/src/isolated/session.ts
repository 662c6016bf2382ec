/**
 * The calls of one isolated plugin across host restarts.
 *
 * - Calls are written to the host as soon as it is up (many in flight; it serves them in order). While a host
 *   starts, calls wait in order and go out after the replay (`configure`, `set_working_dir`).
 * - A crash (signal or exit) fails every call in flight with `ENTROPIC_PLUGIN_CRASHED`; the next call starts a
 *   new host.
 * - A call abandoned by its timeout or AbortSignal is failed at once. If it is the one the host is running,
 *   the host is killed (SIGKILL); if it is queued behind others, the host is killed when it reaches the head.
 *   After such a kill, the calls queued behind the abandoned one never started, so they are sent again to a new
 *   host; a call that may have been running when the kill landed is failed instead (it may have run partly).
 */
import { describePlugin, HOST_ERROR_CODES, PluginError } from '../errors.js';
import { InFlight } from '../in-flight.js';
import { Op, Status } from './frames.js';
import {
  describeExit,
  type HostExit,
  HostProcess,
  type HostReady,
  type HostSpawnOptions,
} from './host-process.js';

export interface Call {
  readonly op: Op;
  readonly parts: readonly string[];
  readonly tool?: string | undefined;
  /** Turns the answer frame (payload `buf[start, end)`) into the value the caller gets (may throw a PluginError). */
  decode: Decoder;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  settled: boolean;
}

export type Decoder = (status: number, buf: Buffer, start: number, end: number) => unknown;

/** What to send to a new host before anything else, read when the host starts. */
export type Replay = () => { op: Op; parts: string[] }[];

const MAX_ID = 0xffff_fffe;

export class HostSession {
  #host: HostProcess | undefined;
  #starting = false;
  #waiting: Call[] = [];
  #inFlight = new InFlight<Call>();
  #nextId = 1;
  #exitWaiters: (() => void)[] = [];
  #name: string | undefined;
  readonly #spawn: HostSpawnOptions;
  readonly #replay: Replay;

  constructor(spawn: HostSpawnOptions, replay: Replay) {
    this.#spawn = spawn;
    this.#replay = replay;
  }

  get path(): string {
    return this.#spawn.pluginPath;
  }

  /** Starts the first host and waits for its ready frame (or the load error). */
  async start(): Promise<HostReady> {
    const host = this.#launch();
    const ready = await host.ready;
    this.#name = ready.name;
    this.#starting = false;
    this.#refresh();
    return ready;
  }

  submit(call: Call): void {
    if (this.#host?.alive && !this.#starting) this.#send(call);
    else {
      this.#waiting.push(call);
      this.#restart();
    }
  }

  /** Fails a call now (timeout, abort); kills the host if the call is the one it is running. */
  abandon(call: Call, error: Error): void {
    if (call.settled) return;
    settle(call, () => {
      throw error;
    });
    const waitingAt = this.#waiting.indexOf(call);
    if (waitingAt >= 0) this.#waiting.splice(waitingAt, 1);
    else this.#killIfHeadAbandoned();
  }

  /** Kills the host, if any, and resolves once it is gone. */
  async stop(): Promise<void> {
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

  #launch(): HostProcess {
    const host = new HostProcess(this.#spawn);
    this.#host = host;
    this.#starting = true;
    host.attach({
      onAnswer: (id, status, buf, start, end) => this.#answer(id, status, buf, start, end),
      onExit: (exit) => this.#exit(host, exit),
      inFlight: () => this.#inFlight.size,
    });
    return host;
  }

  #restart(): void {
    if (this.#starting || this.#host !== undefined) return;
    const first = this.#waiting[0];
    if (first === undefined) return;
    if (first.op === Op.close) {
      // Nothing is loaded, so there is nothing to destroy.
      this.#waiting.shift();
      settle(first, () => undefined);
      return;
    }
    const host = this.#launch();
    host.ready
      .then(() => this.#runReplay())
      .then(
        () => {
          this.#starting = false;
          const waiting = this.#waiting;
          this.#waiting = [];
          for (const call of waiting) this.#send(call);
          this.#refresh();
        },
        (error: Error) => {
          this.#starting = false;
          host.kill();
          const waiting = this.#waiting;
          this.#waiting = [];
          for (const call of waiting) settle(call, () => (call.op === Op.close ? undefined : raise(error)));
        },
      );
  }

  async #runReplay(): Promise<void> {
    for (const step of this.#replay()) {
      await new Promise((resolve, reject) => {
        this.#send({
          ...step,
          decode: codeDecoder(this.path, this.#name, step.op),
          resolve,
          reject,
          settled: false,
        });
      });
    }
  }

  #send(call: Call): void {
    const id = this.#nextId;
    this.#nextId = id >= MAX_ID ? 1 : id + 1;
    this.#inFlight.push(id, call);
    this.#host!.send(id, call.op, call.parts);
    if (this.#inFlight.size === 1) this.#host!.setReferenced(true);
  }

  #refresh(): void {
    this.#host?.setReferenced(this.#starting || this.#inFlight.size > 0 || this.#waiting.length > 0);
  }

  #answer(id: number, status: number, buf: Buffer, start: number, end: number): void {
    const call = this.#inFlight.take(id);
    if (call === undefined) return;
    if (!call.settled) deliver(call, status, buf, start, end);
    this.#killIfHeadAbandoned();
    if (this.#inFlight.size === 0) this.#refresh();
  }

  #killIfHeadAbandoned(): void {
    const head = this.#inFlight.head();
    if (head?.settled) this.#host?.kill();
  }

  #exit(host: HostProcess, exit: HostExit): void {
    if (host !== this.#host) return;
    this.#host = undefined;
    const calls = this.#inFlight.drain();
    if (exit.killed) {
      const head = calls[0];
      if (head !== undefined && !head.settled) {
        settle(head, () =>
          raise(this.#crash(exit, head, ' after an earlier call was abandoned; it may have run partly')),
        );
      }
      this.#waiting.unshift(...calls.slice(1).filter((c) => !c.settled));
    } else {
      for (const call of calls)
        settle(call, () => (call.op === Op.close ? undefined : raise(this.#crash(exit, call, ''))));
    }
    for (const wake of this.#exitWaiters.splice(0)) wake();
    if (!this.#starting) this.#restart();
  }

  #crash(exit: HostExit, call: Call, why: string): PluginError {
    const during = call.tool === undefined ? opName(call.op) : `execute of tool "${call.tool}"`;
    const tail = exit.stderr.trim().split('\n').slice(-5).join('\n');
    const message = `${describePlugin(this.path, this.#name)}: the plugin host ${describeExit(exit)} during ${during}${why}${
      tail ? `; its stderr ended with: ${tail}` : ''
    }`;
    return new PluginError(HOST_ERROR_CODES.crashed, message, {
      path: this.path,
      plugin: this.#name,
      tool: call.tool,
      ...(exit.signal === null ? {} : { signal: exit.signal }),
      ...(exit.exitCode === null ? {} : { exitCode: exit.exitCode }),
      stderr: exit.stderr,
    });
  }
}

function raise(error: Error): never {
  throw error;
}

/** Settles a call with its decoded answer (or the decoder's error), without a closure per answer. */
function deliver(call: Call, status: number, buf: Buffer, start: number, end: number): void {
  call.settled = true;
  let value: unknown;
  try {
    value = call.decode(status, buf, start, end);
  } catch (error) {
    call.reject(error as Error);
    return;
  }
  call.resolve(value);
}

function settle(call: Call, produce: () => unknown): void {
  if (call.settled) return;
  call.settled = true;
  try {
    call.resolve(produce());
  } catch (error) {
    call.reject(error as Error);
  }
}

export function opName(op: Op): string {
  switch (op) {
    case Op.listTools:
      return 'list_tools';
    case Op.execute:
      return 'execute';
    case Op.configure:
      return 'configure';
    case Op.setWorkingDir:
      return 'set_working_dir';
    default:
      return 'close';
  }
}

/** Decoder for configure/set_working_dir: a non-zero entropic_error_t becomes a PluginError with its name. */
export function codeDecoder(path: string, plugin: string | undefined, op: Op) {
  return (status: number, buf: Buffer, start: number, end: number): void => {
    if (status !== Status.code || end - start < 4) throw protocolError(path, plugin, status, buf, start, end);
    const value = buf.readInt32LE(start);
    if (value === 0) return;
    const err = PluginError.fromValue(value, '', { path, plugin });
    throw PluginError.fromValue(
      value,
      `${describePlugin(path, plugin)}: ${opName(op)} returned ${err.code} (${value})`,
      {
        path,
        plugin,
      },
    );
  };
}

/** Decoder for list_tools/execute: the raw string, or null when the plugin returned NULL. */
export function textDecoder(path: string, plugin: string | undefined) {
  return (status: number, buf: Buffer, start: number, end: number): string | null => {
    if (status === Status.string) return buf.toString('utf8', start, end);
    if (status === Status.null) return null;
    throw protocolError(path, plugin, status, buf, start, end);
  };
}

function protocolError(
  path: string,
  plugin: string | undefined,
  status: number,
  buf: Buffer,
  start: number,
  end: number,
): PluginError {
  const detail =
    status === Status.badRequest ? buf.toString('utf8', start, end) : `unexpected answer status ${status}`;
  return new PluginError(
    HOST_ERROR_CODES.unavailable,
    `${describePlugin(path, plugin)}: the plugin host said: ${detail}`,
    {
      path,
      plugin,
    },
  );
}
