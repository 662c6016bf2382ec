// The wait after a lone call at both ends of the wire: the host process, and the in-process instance thread,
// stay awake between a loader's paced calls, and sleep at once with ENTROPIC_HOST_SPIN_US=0; a call alone right
// after a burst is not a lone call and gets no such wait. What tells them apart is how often the instance's
// thread went to sleep (its voluntary context switches, from /proc): a thread that looks for the next request
// yields the CPU but does not sleep, one that waits for it sleeps once per call. Unlike its CPU time, that count
// does not depend on how busy the machine is, and each figure is compared with a control made in the same test.
import { readdirSync, readFileSync } from 'node:fs';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import type { Isolation } from '../src/base/types.js';
import { loadPlugin } from '../src/index.js';
import { hostPids } from './support/host-proc.js';

/** The in-process instance threads of this process (the addon names them). */
function threadIds(): Set<string> {
  const tasks = readdirSync(`/proc/${process.pid}/task`);
  return new Set(
    tasks.filter(
      (t) => readFileSync(`/proc/${process.pid}/task/${t}/comm`, 'utf8').trim() === 'entropic-plugin',
    ),
  );
}

/** How often a thread (the main thread of a process when `task` is its pid) went to sleep: its voluntary switches. */
function sleeps(pid: number, task: number | string): number {
  const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
  const line = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(status);
  if (line === null) throw new Error(`no voluntary_ctxt_switches in /proc/${pid}/task/${task}/status`);
  return Number(line[1]);
}

/** Calls that leave 2 ms apart: alone (40 calls), or each the first of a window after a burst of 32 (30 times). */
type Pattern = 'lone' | 'window-edge';

/**
 * How often the instance's thread (the host process's main thread, or the in-process instance thread) slept over
 * a pattern of paced calls, for a spin window.
 */
async function instanceSleeps(
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
    const count = isolation === 'process' ? () => sleeps(pid!, pid!) : () => sleeps(process.pid, task!);
    expect(isolation === 'process' ? pid : task).toBeDefined();
    await plugin.execute('echo', { n: 0 });
    const start = count();
    for (let i = 1; i <= (pattern === 'lone' ? 40 : 30); i++) {
      if (pattern === 'window-edge') {
        await Promise.all(Array.from({ length: 32 }, (_, k) => plugin.execute('echo', { k })));
      }
      expect((await plugin.execute('echo', { n: i })).result).toBe(`{"n":${i}}`);
      await holdFor(2); // calls apart in time: the pattern under test
    }
    return count() - start;
  } finally {
    await plugin.close();
  }
}

describe.runIf(process.platform === 'linux').each(['process', 'none'] as const)(
  'the instance after a lone call (isolation %s)',
  (isolation) => {
    it('keeps looking for the next request within its window, and not at all when the window is 0', async () => {
      const sleeping = await instanceSleeps(isolation, '0');
      // Without a window it sleeps after each of the 40 calls (the next one comes 2 ms later).
      expect(sleeping).toBeGreaterThanOrEqual(40);
      // With a 10 ms window (the longest the host allows) it finds the next call awake, but for a call that came
      // later than that: on a loaded machine this process can stay off the CPU for longer, and after each such
      // miss the instance skips its next windows (1, 2, 4... in a row), so one slow stretch can cost a whole round.
      // Rounds (each with a fresh instance) are repeated until one ran its 40 calls without such stretches. That
      // takes nothing away: an instance that does not look for the next request waits in its read for each next
      // call (2 ms or more away), so every round of it sleeps about once per call, as the control does under load.
      const rounds: number[] = [];
      try {
        await waitFor(
          async () => {
            const spinning = await instanceSleeps(isolation, '10000');
            rounds.push(spinning);
            return spinning < sleeping / 2;
          },
          'a round of 40 paced calls in which the instance slept less than half as often as without a window',
          60_000,
        );
      } catch (error) {
        throw new Error(
          `${(error as Error).message}: ${sleeping} sleeps without a window; ${rounds.length} rounds with one, the fewest ${Math.min(...rounds)}`,
        );
      }
    });

    it('sleeps after a call that came alone right after a burst (the first of a client window), as after the burst', async () => {
      // Each of the 30 rounds is a burst of 32 calls, then one call alone, then a pause of 2 ms: the instance
      // sleeps after the burst and again after the lone call. Were that call taken for a lone one, the instance
      // would stay awake into the next burst and sleep about half as often as with no window at all.
      const control = await instanceSleeps(isolation, '0', 'window-edge');
      const windowed = await instanceSleeps(isolation, '10000', 'window-edge');
      expect(control).toBeGreaterThanOrEqual(30);
      expect(windowed).toBeGreaterThan(0.75 * control);
    });
  },
);
