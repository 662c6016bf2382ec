// Where the release test's minutes go: each step's wall seconds and CPU seconds (this process and the child
// processes it has reaped, from /proc/self/stat), printed at the end of the run.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/self/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds of this process plus its reaped children, or undefined where /proc is not there. */
function cpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces) in parentheses; utime is the 14th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / TICKS;
  } catch {
    return undefined;
  }
}

export interface Steps {
  /** Notes the step that just ended: its wall time and CPU time since the previous one. */
  step(name: string): void;
  /** One line: each step's figures, then the total. */
  summary(): string;
}

export function stepClock(): Steps {
  const first = { wall: Date.now(), cpu: cpuSeconds() };
  let last = { ...first };
  const notes: string[] = [];
  const figures = (from: typeof first, to: typeof first) => {
    const wall = `${((to.wall - from.wall) / 1000).toFixed(1)} s`;
    return from.cpu === undefined || to.cpu === undefined
      ? wall
      : `${wall} (CPU ${(to.cpu - from.cpu).toFixed(1)} s)`;
  };
  return {
    step(name) {
      const now = { wall: Date.now(), cpu: cpuSeconds() };
      notes.push(`${name} ${figures(last, now)}`);
      last = now;
    },
    summary() {
      return `${notes.join(', ')}; in all ${figures(first, { wall: Date.now(), cpu: cpuSeconds() })}`;
    },
  };
}
