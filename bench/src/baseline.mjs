// The server as it was before its telemetry, built from git for the telemetry workload's "today" row: the
// parent of the commit that added packages/server/src/core/telemetry, extracted with `git archive` into
// bench/.baseline/<commit>/ (kept between runs, ignored by git) and compiled to JavaScript file by file with the
// workspace's TypeScript (no type check: that commit passed its own), its node_modules being the workspace's
// server's.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  transpile(join(dir, 'packages', 'server', 'src'), dist);
  return dist;
}

/**
 * Every source file of `src` (tests left out) as JavaScript in `out`, the way the package's build emits it
 * (ES2022 modules; the sources use `isolatedModules` and `verbatimModuleSyntax`, so each file compiles alone).
 * Type checking the whole program with `tsc` took four times the CPU, for a build that is never edited. The
 * folder is written aside and renamed into place last, so a run stopped half way leaves no `dist` to reuse.
 */
function transpile(src, out) {
  const ts = createRequire(join(rootDir, 'package.json'))('typescript');
  const compilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
  };
  const partial = `${out}.partial`;
  for (const dir of [partial, out]) rmSync(dir, { recursive: true, force: true });
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'),
  );
  for (const file of files) {
    const { outputText } = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
      compilerOptions,
      fileName: file,
    });
    const target = join(partial, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  renameSync(partial, out);
}
