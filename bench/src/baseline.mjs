// The server as it was before its telemetry, built from git for the telemetry workload's "today" row: the
// parent of the commit that added packages/server/src/core/telemetry, extracted with `git archive` into
// bench/.baseline/<commit>/ (kept between runs, ignored by git) and compiled with the workspace's tsc, its
// node_modules being the workspace's server's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, rootDir } from './targets.mjs';

const git = (...args) => execFileSync('git', ['-C', rootDir, ...args], { encoding: 'utf8' }).trim();

/** The commit the baseline is built from: `ref`, or the parent of the first commit with the telemetry. */
export function baselineCommit(ref) {
  if (ref !== undefined) return git('rev-parse', '--short', ref);
  const added = git(
    'log',
    '--diff-filter=A',
    '--format=%H',
    '--',
    'packages/server/src/core/telemetry/operation.ts',
  )
    .split('\n')
    .filter(Boolean)
    .at(-1);
  if (added === undefined)
    throw new Error('no commit adds packages/server/src/core/telemetry (is this a git clone?)');
  return git('rev-parse', '--short', `${added}^`);
}

/** The `dist` folder of the server built at `commit` (built on first use). */
export function baselineServer(commit) {
  const dir = join(benchDir, '.baseline', commit);
  const dist = join(dir, 'packages', 'server', 'dist');
  if (existsSync(join(dist, 'index.js'))) return dist;
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', [
    '-c',
    `git -C "${rootDir}" archive ${commit} packages/server tsconfig.base.json | tar -x -C "${dir}"`,
  ]);
  const modules = join(dir, 'packages', 'server', 'node_modules');
  if (!existsSync(modules)) symlinkSync(join(rootDir, 'packages', 'server', 'node_modules'), modules);
  execFileSync(
    join(rootDir, 'node_modules', '.bin', 'tsc'),
    ['-p', join(dir, 'packages', 'server', 'tsconfig.build.json')],
    {
      stdio: 'inherit',
    },
  );
  return dist;
}
