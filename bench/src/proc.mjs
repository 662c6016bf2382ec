// Memory, CPU time and scheduling of a server process (and of the processes it started), read from /proc.
import { readdirSync, readFileSync } from 'node:fs';

function statusField(pid, field) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childPids(pid) {
  const out = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) for (const child of text.split(' ')) out.push(Number(child));
    }
  } catch {
    // The process is gone; nothing to add.
  }
  return out;
}

/** Bytes for a /proc status field (VmHWM = peak RSS, VmRSS = current) of pid alone and of its descendants. */
export function memoryOf(pid, field) {
  const self = statusField(pid, field);
  let children = 0;
  const queue = childPids(pid);
  while (queue.length > 0) {
    const child = queue.pop();
    children += statusField(child, field);
    queue.push(...childPids(child));
  }
  return { self, children };
}

/** CPU seconds used so far by the descendants of pid alone (plugin hosts), not by pid itself. */
export function childrenCpuSecondsOf(pid) {
  return schedTreeOf(pid).children.runNs / 1e9;
}

/** CPU seconds used so far by every thread of pid and of all its descendants (cluster workers, plugin hosts). */
export function treeCpuSecondsOf(pid) {
  return cpuSecondsOf(pid) + childrenCpuSecondsOf(pid);
}

/** CPU seconds used so far by every thread of pid (scheduler run time, nanosecond resolution). */
export function cpuSecondsOf(pid) {
  return schedOf(pid).runNs / 1e9;
}

/** Scheduler counters summed over every thread of pid: ns on a CPU, ns waiting for one, times run. */
function schedOf(pid) {
  const total = { runNs: 0, waitNs: 0, slices: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
        total.runNs += Number(run);
        total.waitNs += Number(wait);
        total.slices += Number(slices);
      } catch {
        // The thread ended between listing and reading.
      }
    }
  } catch {
    // The process is gone.
  }
  return total;
}

/** Scheduler counters of pid (`self`) and of its descendants (`children`: plugin hosts), from schedstat. */
export function schedTreeOf(pid) {
  const children = { runNs: 0, waitNs: 0, slices: 0 };
  const queue = childPids(pid);
  while (queue.length > 0) {
    const next = queue.pop();
    const s = schedOf(next);
    children.runNs += s.runNs;
    children.waitNs += s.waitNs;
    children.slices += s.slices;
    queue.push(...childPids(next));
  }
  return { self: schedOf(pid), children };
}
