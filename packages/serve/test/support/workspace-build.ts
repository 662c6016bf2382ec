// Whether the workspace build is current, as turbo sees it: the build tasks it would run now (a cache miss with a
// build script). `npm start` runs that build before serving; a test of `npm start` needs it to be a no-op.
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './serve-helpers.js';

interface DryRunTask {
  taskId: string;
  command: string;
  cache: { status: 'HIT' | 'MISS' };
}

/** The `turbo run build` tasks of the workspace that would build something now, by task id. */
export function staleBuilds(): string[] {
  const out = execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--dry-run=json'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  });
  const { tasks } = JSON.parse(out) as { tasks: DryRunTask[] };
  return tasks
    .filter((task) => task.cache.status === 'MISS' && task.command !== '<NONEXISTENT>')
    .map((task) => task.taskId)
    .sort();
}
