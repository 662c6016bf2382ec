/**
 * Removes the pids cgroup a sandboxed host made for itself (native/host/sandbox_cgroup.c) once the host has
 * exited: whatever the plugin left running in it (children that outlived the host, which hold its pipes open, so
 * they are killed as soon as the host exits) is killed first, as a cgroup can only be removed empty. Never throws:
 * a group that cannot be removed is left behind, empty or not.
 */
import { readdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

const ATTEMPTS = 50;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Kills everything in the group of host `pid`: what the plugin started holds the host's pipes open. */
export function killHostCgroup(dir: string, pid: number): Promise<void> {
  return killAll(hostCgroup(dir, pid));
}

async function killAll(group: string): Promise<void> {
  let text = '';
  try {
    text = await readFile(join(group, 'cgroup.procs'), 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    const pid = Number(line);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The group of host `pid` under `dir`. */
export function hostCgroup(dir: string, pid: number): string {
  return join(dir, `entropic-host-${pid}`);
}

export async function removeHostCgroup(dir: string, pid: number): Promise<void> {
  const group = hostCgroup(dir, pid);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await rmdir(group);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    }
    await killAll(group);
    await pause(Math.min(200, 5 * 2 ** attempt));
  }
}

/** Whether `pid` is a plugin host now (its command name, cut to 15 characters by the kernel). */
async function isHost(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).startsWith('entropic_plugin');
  } catch {
    return false;
  }
}

/**
 * Removes the groups under `dir` whose host is gone: left behind when a server was killed before it could remove
 * them, with whatever their plugins still ran. A group whose host runs (this server's or another's) is left alone.
 */
export async function sweepHostCgroups(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^entropic-host-(\d+)$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !(await isHost(pid))) await removeHostCgroup(dir, pid);
  }
}
