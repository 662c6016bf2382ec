/**
 * Spawns the plugin host with its request and answer channels on real pipes when the in-process addon can make
 * them, else on Node's own stdio. Node gives a child UNIX stream sockets for `'pipe'` stdio; a pipe carries the
 * host's bursts both ways for less (no socket buffer to allocate per write, a cheaper wake-up), which shows most
 * on a lone call's round trip. Isolated hosting needs no addon: without one (or with one built before `pipe`)
 * the host simply talks over the sockets.
 *
 * A third channel, the host's fd 3, carries cancellations of calls to a plugin with the plugin context (`wire.h`);
 * the host learns of it from ENTROPIC_HOST_CANCEL_FD, which a host that predates the context ignores.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { optionalAddon } from '../addon/binding.js';

export interface SpawnedHost {
  readonly child: ChildProcess;
  /** Where request text goes (the host's fd 0). */
  readonly input: Writable;
  /** Where answer frames come from (the host's fd 1). */
  readonly output: Readable;
  readonly stderr: Readable;
  /**
   * True when `output` is this side's own pipe: the child's `'close'` then does not wait for it, so whoever
   * reports the end waits for both (answers written just before the host died are still read).
   */
  readonly ownOutput: boolean;
  /** Where cancellations go (the host's fd 3). */
  readonly cancel: Writable;
}

/** The host's descriptor for cancellations. */
const CANCEL_FD = 3;

/**
 * The host's environment: this process's, where its cancellations come in, and its OS sandbox when it has one
 * (both read when it is spawned, and taken out of its environment before the plugin loads).
 */
function hostEnv(sandbox: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ENTROPIC_HOST_CANCEL_FD: String(CANCEL_FD) };
  if (sandbox !== undefined) env.ENTROPIC_HOST_SANDBOX = sandbox;
  else delete env.ENTROPIC_HOST_SANDBOX;
  return env;
}

type MakePipe = () => { readonly read: number; readonly write: number };

export function spawnHost(command: string, args: readonly string[], sandbox?: string): SpawnedHost {
  const makePipe = optionalAddon()?.pipe;
  if (typeof makePipe !== 'function') {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: hostEnv(sandbox) });
    const cancel = child.stdio[CANCEL_FD] as Writable;
    return {
      child,
      input: child.stdin,
      output: child.stdout,
      stderr: child.stderr,
      ownOutput: false,
      cancel,
    };
  }
  const made: ReturnType<MakePipe>[] = [];
  let child: ReturnType<typeof spawn>;
  try {
    for (let i = 0; i < 3; i++) made.push(makePipe());
  } catch (error) {
    closeAll(made.flatMap((p) => [p.read, p.write]));
    throw error;
  }
  const [requests, answers, cancels] = made as [
    ReturnType<MakePipe>,
    ReturnType<MakePipe>,
    ReturnType<MakePipe>,
  ];
  try {
    child = spawn(command, args, {
      stdio: [requests.read, answers.write, 'pipe', cancels.read],
      env: hostEnv(sandbox),
    });
  } catch (error) {
    closeAll([requests.write, answers.read, cancels.write]);
    throw error;
  } finally {
    // The child has its own copies now (or never will): ours would keep the host from seeing end of input
    // and this side from seeing the host's end.
    closeAll([requests.read, answers.write, cancels.read]);
  }
  const input = new Socket({ fd: requests.write, readable: false, writable: true });
  const output = new Socket({ fd: answers.read, readable: true, writable: false });
  const cancel = new Socket({ fd: cancels.write, readable: false, writable: true });
  return { child, input, output, stderr: child.stderr as Readable, ownOutput: true, cancel };
}

function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed: nothing to release
    }
  }
}
