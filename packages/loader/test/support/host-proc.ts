// What /proc tells of the plugin host processes this test process started: which they are, and whether one of
// their threads sleeps in nanosleep (a plugin's usleep), for a test whose subject is what happens meanwhile.
import { readdirSync, readFileSync } from 'node:fs';

/** The plugin host processes this process started (children whose name begins with entropic_plugin). */
export function hostPids(): Set<number> {
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

/** Whether a thread of process `pid` sleeps in nanosleep now (its kernel wait channel says so). */
export function inNanosleep(pid: number): boolean {
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8').includes('nanosleep')) return true;
    } catch {
      // the thread ended meanwhile
    }
  }
  return false;
}
