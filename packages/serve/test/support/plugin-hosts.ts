// What the plugin host processes of a serve process are doing, read from Linux /proc: lets a test wait until a
// call is running inside a C plugin (one that sleeps) instead of pausing and hoping it got there.
import { readdirSync, readFileSync } from 'node:fs';
import { childPids } from '@entropic-mcp/test-kit/serve-process';

/** nanosleep and clock_nanosleep (what usleep makes) per architecture. */
const SLEEP_CALLS: Record<string, readonly number[]> = { x64: [35, 230], arm64: [101, 115] };

function threadSyscalls(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map((task) =>
      Number.parseInt(readFileSync(`/proc/${pid}/task/${task}/syscall`, 'utf8').split(' ')[0] ?? '', 10),
    );
  } catch {
    return []; // the host has exited meanwhile
  }
}

/** How many plugin hosts (direct children) of serve process `pid` are asleep in a plugin's code. */
export function hostsSleeping(pid: number): number {
  const sleeps = SLEEP_CALLS[process.arch];
  if (sleeps === undefined) throw new Error(`no sleep system calls known for ${process.arch}`);
  return childPids(pid).filter((host) => threadSyscalls(host).some((call) => sleeps.includes(call))).length;
}
