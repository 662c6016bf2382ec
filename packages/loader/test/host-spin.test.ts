// The host's wait after a lone call: it stays on the CPU between a loader's paced calls, and sleeps in read at once
// with ENTROPIC_HOST_SPIN_US=0 (the CPU time of the real host process, from /proc, tells the two apart).
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../src/index.js';
import { fixture } from './support/fixtures.js';

/** The plugin host processes this process started. */
function hostPids(): Set<number> {
  const pids = new Set<number>();
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.split(' ').filter(Boolean).map(Number)) {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('entropic_plugin')) pids.add(pid);
    }
  }
  return pids;
}

/** Nanoseconds the process has spent on a CPU. */
function cpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** Host CPU time over 40 lone calls, 2 ms apart, with the given spin window. */
async function hostCpuMs(spinMicros: string): Promise<number> {
  const before = hostPids();
  const saved = process.env.ENTROPIC_HOST_SPIN_US;
  process.env.ENTROPIC_HOST_SPIN_US = spinMicros;
  const plugin = await loadPlugin(fixture('crashy'));
  if (saved === undefined) delete process.env.ENTROPIC_HOST_SPIN_US;
  else process.env.ENTROPIC_HOST_SPIN_US = saved;
  try {
    const [pid] = [...hostPids()].filter((p) => !before.has(p));
    expect(pid).toBeDefined();
    await plugin.execute('echo', { n: 0 });
    const start = cpuNs(pid!);
    for (let i = 1; i <= 40; i++) {
      expect((await plugin.execute('echo', { n: i })).result).toBe(`{"n":${i}}`);
      await sleep(2);
    }
    return (cpuNs(pid!) - start) / 1e6;
  } finally {
    await plugin.close();
  }
}

describe.runIf(process.platform === 'linux')('the host after a lone call', () => {
  it('keeps looking for the next request within its window, and not at all when the window is 0', async () => {
    const spinning = await hostCpuMs('10000');
    const sleeping = await hostCpuMs('0');
    expect(sleeping).toBeLessThan(20);
    expect(spinning).toBeGreaterThan(Math.max(10, 4 * sleeping));
  });
});
