#!/usr/bin/env node
// One entry point for the Quick start and development commands, usable on a machine that has only Node and npm.
//   node scripts/run.mjs serve          install, build, then serve the bundled example plugins
//   node scripts/run.mjs test           install (with apt-get as root, the system tools the tests use), build,
//                                       then every test beside lint, typecheck and the ABI gate
//   node scripts/run.mjs test ARGS...   install, build, then vitest with ARGS only (a file, a --project …)
//   node scripts/run.mjs fast           build (cached), then the in-memory unit tests beside lint and typecheck
// Each prints its plan first and the time of each step at the end; SIGINT/SIGTERM stops every process it started
// (scripts/steps.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Runner, runSteps, together } from './steps.mjs';
import { printTestReport } from './test-report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' };
const tools = join(root, '.tools', 'node_modules', '.bin');
env.PATH = `${tools}${delimiter}${join(root, 'node_modules', '.bin')}${delimiter}${env.PATH}`;
const runner = new Runner(env, root);
/** The JSON report of the last whole-workspace vitest run. */
const REPORT = join(root, '.vitest-results.json');

/** A step that runs one command and passes when it exits 0. */
const must = (cmd, args) => (r) => r.exec(cmd, args);
/** A step that runs several commands in order, up to the first that fails. */
const all =
  (...steps) =>
  async (r) => {
    for (const step of steps) {
      const code = await step(r);
      if (code !== 0) return code;
    }
    return 0;
  };

function pnpmVersion() {
  const r = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// pnpm: the pinned version on PATH, else a private copy under .tools/ (no global install, no root).
async function ensurePnpm(r) {
  if (pnpmVersion() === pinned) return 0;
  console.error(`• installing pnpm@${pinned} into .tools/`);
  const prefix = join(root, '.tools');
  return r.exec('npm', [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-audit',
    '--no-fund',
    `pnpm@${pinned}`,
  ]);
}

// What the test suite runs besides Node (real Redis and HAProxy, valgrind, abigail-tools for the ABI gate, musl
// for the loader's musl prebuild, libfaketime for clock-skew tests, libseccomp for the sandbox suite's second host),
// as command (or a file, for a library) and Debian package. `npm start` needs none of them.
const TEST_TOOLS = [
  ['abidw', 'abigail-tools'],
  ['valgrind', 'valgrind'],
  ['make', 'make'],
  ['g++', 'g++'],
  ['musl-gcc', 'musl-tools'],
  ['redis-server', 'redis-server'],
  ['haproxy', 'haproxy'],
  ['prometheus', 'prometheus'],
  ['faketime', 'faketime'],
  ['/usr/include/seccomp.h', 'libseccomp-dev'],
];

function have(command) {
  if (command.startsWith('/')) return existsSync(command);
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

// Installs the missing ones with apt-get when this runs as root on Debian; otherwise names them and fails.
async function ensureTestTools(r) {
  const missing = TEST_TOOLS.filter(([command]) => !have(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return 0;
  if (have('apt-get') && process.getuid?.() === 0) {
    console.error(`• installing ${missing.join(', ')} with apt-get`);
    const aptEnv = { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } };
    const update = await r.exec('apt-get', ['update', '-qq'], aptEnv);
    if (update !== 0) return update;
    return r.exec('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], aptEnv);
  }
  console.error(
    `✖ the tests need ${missing.join(', ')}; on Debian: sudo apt-get install -y ${missing.join(' ')}`,
  );
  return 1;
}

const TOOLS_STEP = {
  name: 'system tools',
  what: `${TEST_TOOLS.map(([command]) => command).join(', ')} (apt-get installs missing ones as root)`,
  run: ensureTestTools,
};
const INSTALL_STEP = {
  name: 'install',
  what: 'pnpm install --frozen-lockfile',
  run: all(ensurePnpm, must('pnpm', ['install', '--frozen-lockfile'])),
};
// The loader's prebuilds are made here, once, not by the first `pnpm pack` of a test: the packed-package test and
// the release test both read them, and would race if one of them made them while the other copied them. They are
// packaged from the loader's own build (build/Release), not compiled a second time (scripts/prebuild.mjs).
const BUILD_STEP = {
  name: 'build',
  what: 'turbo run build prebuilds',
  run: must('turbo', ['run', 'build', 'prebuilds', '--output-logs=new-only']),
};
const LINT_STEP = { name: 'lint', what: 'biome check .', run: must('biome', ['check', '.']) };
// Incremental (each package's tsbuildinfo under its node_modules/.cache/tsc): after an edit, only what it touched
// is checked again. It runs beside the tests: two packages at a time, and only errors printed.
const TYPECHECK_STEP = {
  name: 'typecheck',
  what: 'turbo run typecheck --concurrency=2',
  run: must('turbo', ['run', 'typecheck', '--concurrency=2', '--output-logs=errors-only']),
};

/** The chaos suite's projects (vitest.config.ts), the last phase of `npm test`. */
const CHAOS = 'chaos:*';

/** Runs vitest with `args` from the root, then sums up its report. */
function vitestStep(name, args) {
  return {
    name,
    what: `vitest run ${args.join(' ')}`.trimEnd(),
    async run(r) {
      rmSync(REPORT, { force: true });
      const code = await r.exec('vitest', ['run', ...args]);
      const failed = existsSync(REPORT) ? printTestReport(REPORT, root) : 0;
      return code !== 0 ? code : failed > 0 ? 1 : 0;
    },
  };
}

const [task, ...rest] = process.argv.slice(2);
// `npm test -- FILE` and `pnpm test -- FILE` may hand over the `--` itself.
const args = rest[0] === '--' ? rest.slice(1) : rest;

if (task === 'serve') {
  const code = await runSteps('npm start', [INSTALL_STEP, BUILD_STEP], { runner, quiet: true });
  if (code !== 0) process.exit(code);
  // In this process, not a child: serve then watches this process's parent (npm), and ends when it is gone.
  const { serveExamples } = await import(pathToFileURL(join(root, 'scripts', 'serve-examples.mjs')).href);
  process.exit(await serveExamples(args));
} else if (task === 'test' && args.length > 0) {
  process.exit(
    await runSteps(
      `npm test ${args.join(' ')}`,
      [TOOLS_STEP, INSTALL_STEP, BUILD_STEP, vitestStep('tests', args)],
      {
        runner,
      },
    ),
  );
} else if (task === 'test') {
  // After the build, two phases. First every suite but chaos, beside lint and the ABI gate (the tests spend much of
  // their time waiting on child processes and sockets, which the quick checks fill). Then the chaos suite, which
  // runs two files at a time and judges the product under faults rather than under the other suites' load: it
  // leaves most of a core idle, which the typecheck (about 100 s of CPU) takes instead of competing with the first
  // phase. A failure in the first phase ends the run there.
  const steps = [
    TOOLS_STEP,
    INSTALL_STEP,
    BUILD_STEP,
    together(vitestStep('tests', ['--project', `!${CHAOS}`]), [
      LINT_STEP,
      // The ABI gate, against the fork point and the last released ABI (the last release record). This is what
      // CI runs, so --ci: a clone where the gate finds neither fails instead of passing on self-consistency alone.
      {
        name: 'ABI gate',
        what: 'entropic-abi check --ci',
        run: must('pnpm', ['exec', 'entropic-abi', 'check', '--ci']),
      },
    ]),
    together(vitestStep('chaos', ['--project', CHAOS]), [TYPECHECK_STEP]),
  ];
  process.exit(await runSteps('npm test', steps, { runner }));
} else if (task === 'fast') {
  // The build first (turbo's cache makes it a no-op when nothing changed): the unit tests import the built packages,
  // so they may not run while the typecheck's dependency builds rewrite them.
  const steps = [
    {
      ...BUILD_STEP,
      what: 'turbo run build',
      run: must('turbo', ['run', 'build', '--output-logs=errors-only']),
    },
    together(vitestStep('unit tests', ['--project', '*:unit', ...args]), [LINT_STEP, TYPECHECK_STEP]),
  ];
  process.exit(await runSteps('test:fast', steps, { runner }));
} else {
  console.error('usage: node scripts/run.mjs serve | test [vitest arguments] | fast');
  process.exit(2);
}
