/**
 * What a sandboxed plugin allowed to start processes (`processes` > 0) left running when its host ended: those
 * processes outlive the host and hold its pipes open, so the host's end would never be reported. They are found
 * by what the sandbox put them in, which they cannot leave: the host's pids cgroup, or (RLIMIT_NPROC counting) its
 * user namespace, whose identity is read once the host is ready. Killed as soon as the host exits; the cgroup is
 * removed once the host's end is reported.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import { killHostCgroup, removeHostCgroup } from './cgroup.js';

/** How a host's plugin processes are found: its pids cgroup's folder, or its user namespace. */
export type Leftovers = { readonly cgroupDir: string } | { readonly userNamespace: true };

async function namespaceOf(pid: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/${pid}/ns/user`);
  } catch {
    return undefined;
  }
}

/** Kills every process in the user namespace `ns` (none of them is this process: it is not in that namespace). */
async function killNamespace(ns: string): Promise<void> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const pid of pids) {
    if ((await namespaceOf(Number(pid))) !== ns) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export class LeftoverReaper {
  readonly #how: Leftovers;
  readonly #child: ChildProcess;
  #namespace: string | undefined;

  constructor(how: Leftovers, child: ChildProcess) {
    this.#how = how;
    this.#child = child;
    child.once('exit', () => void this.#kill());
  }

  /** The host has applied its sandbox: its user namespace is the one its plugin's processes share. */
  async ready(): Promise<void> {
    const pid = this.#child.pid;
    if ('userNamespace' in this.#how && pid !== undefined) this.#namespace = await namespaceOf(pid);
  }

  /** The host's end was reported: its cgroup can go. */
  closed(): void {
    const pid = this.#child.pid;
    if ('cgroupDir' in this.#how && pid !== undefined) void removeHostCgroup(this.#how.cgroupDir, pid);
  }

  async #kill(): Promise<void> {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    if ('cgroupDir' in this.#how) await killHostCgroup(this.#how.cgroupDir, pid);
    else if (this.#namespace !== undefined) await killNamespace(this.#namespace);
  }
}
