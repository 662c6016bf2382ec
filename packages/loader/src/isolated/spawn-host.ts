/**
 * Spawns the plugin host with its request and answer channels on real pipes when the in-process addon can make
 * them, else on Node's own stdio. Node gives a child UNIX stream sockets for `'pipe'` stdio; a pipe carries the
 * host's bursts both ways for less (no socket buffer to allocate per write, a cheaper wake-up), which shows most
 * on a lone call's round trip. Isolated hosting needs no addon: without one (or with one built before `pipe`)
 * the host simply talks over the sockets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { optionalAddon } from '../inprocess/binding.js';

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
}

type MakePipe = () => { readonly read: number; readonly write: number };

export function spawnHost(command: string, args: readonly string[]): SpawnedHost {
  const makePipe = optionalAddon()?.pipe;
  if (typeof makePipe !== 'function') {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    return { child, input: child.stdin, output: child.stdout, stderr: child.stderr, ownOutput: false };
  }
  const requests = makePipe();
  let answers: ReturnType<MakePipe>;
  try {
    answers = makePipe();
  } catch (error) {
    closeAll([requests.read, requests.write]);
    throw error;
  }
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(command, args, { stdio: [requests.read, answers.write, 'pipe'] });
  } catch (error) {
    closeAll([requests.write, answers.read]);
    throw error;
  } finally {
    // The child has its own copies now (or never will): ours would keep the host from seeing end of input
    // and this side from seeing the host's end.
    closeAll([requests.read, answers.write]);
  }
  const input = new Socket({ fd: requests.write, readable: false, writable: true });
  const output = new Socket({ fd: answers.read, readable: true, writable: false });
  return { child, input, output, stderr: child.stderr as Readable, ownOutput: true };
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
