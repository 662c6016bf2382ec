// The wait after a lone call at both ends of the wire: the host process, and the in-process instance thread,
// stay on the CPU between a loader's paced calls, and sleep at once with ENTROPIC_HOST_SPIN_US=0 (their CPU time,
// from /proc, tells the two apart); a call alone right after a burst is not a lone call and gets no such wait.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../src/index.js';
import type { Isolation } from '../src/types.js';
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

/** The in-process instance threads of this process (the addon names them). */
function threadIds(): Set<string> {
  const tasks = readdirSync(`/proc/${process.pid}/task`);
  return new Set(
    tasks.filter(
      (t) => readFileSync(`/proc/${process.pid}/task/${t}/comm`, 'utf8').trim() === 'entropic-plugin',
    ),
  );
}

/** Nanoseconds a process (or, with `task`, one of its threads) has spent on a CPU. */
function cpuNs(pid: number, task?: string): number {
  const path = task === undefined ? `/proc/${pid}/schedstat` : `/proc/${pid}/task/${task}/schedstat`;
  return Number(readFileSync(path, 'utf8').split(' ')[0]);
}

/** Calls that leave 2 ms apart: alone (40 calls), or each the first of a window after a burst of 32 (30 times). */
type Pattern = 'lone' | 'window-edge';

/** CPU time of the instance (host process or instance thread) over a pattern of paced calls, for a spin window. */
async function instanceCpuMs(
  isolation: Isolation,
  spinMicros: string,
  pattern: Pattern = 'lone',
): Promise<number> {
  const hosts = hostPids();
  const threads = threadIds();
  const saved = process.env.ENTROPIC_HOST_SPIN_US;
  process.env.ENTROPIC_HOST_SPIN_US = spinMicros;
  const plugin = await loadPlugin(fixture('crashy'), { isolation });
  if (saved === undefined) delete process.env.ENTROPIC_HOST_SPIN_US;
  else process.env.ENTROPIC_HOST_SPIN_US = saved;
  try {
    const [pid] = [...hostPids()].filter((p) => !hosts.has(p));
    const [task] = [...threadIds()].filter((t) => !threads.has(t));
    const cpu = isolation === 'process' ? () => cpuNs(pid!) : () => cpuNs(process.pid, task!);
    expect(isolation === 'process' ? pid : task).toBeDefined();
    await plugin.execute('echo', { n: 0 });
    const start = cpu();
    for (let i = 1; i <= (pattern === 'lone' ? 40 : 30); i++) {
      if (pattern === 'window-edge') {
        await Promise.all(Array.from({ length: 32 }, (_, k) => plugin.execute('echo', { k })));
      }
      expect((await plugin.execute('echo', { n: i })).result).toBe(`{"n":${i}}`);
      await sleep(2);
    }
    return (cpu() - start) / 1e6;
  } finally {
    await plugin.close();
  }
}

describe.runIf(process.platform === 'linux').each(['process', 'none'] as const)(
  'the instance after a lone call (isolation %s)',
  (isolation) => {
    it('keeps looking for the next request within its window, and not at all when the window is 0', async () => {
      const spinning = await instanceCpuMs(isolation, '10000');
      const sleeping = await instanceCpuMs(isolation, '0');
      expect(sleeping).toBeLessThan(20);
      expect(spinning).toBeGreaterThan(Math.max(10, 4 * sleeping));
    });

    it('sleeps after a call that came alone right after a burst (the first of a client window), as after the burst', async () => {
      // Spinning up to 10 ms after each of those 30 calls would cost the instance about 60 ms (they are 2 ms apart);
      // sleeping, it uses about 1 ms.
      expect(await instanceCpuMs(isolation, '10000', 'window-edge')).toBeLessThan(15);
    });
  },
);
