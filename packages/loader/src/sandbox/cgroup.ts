/**
 * Removes the pids cgroup a sandboxed host made for itself (native/host/sandbox_cgroup.c) once the host has
 * exited: whatever the plugin left running in it (children that outlived the host) is killed first, as a cgroup
 * can only be removed empty. Never throws: a group that cannot be removed is left behind, empty or not.
 */
import { readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

const ATTEMPTS = 50;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
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
