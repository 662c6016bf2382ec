#!/usr/bin/env node
// One entry point for the two Quick start commands, usable on a machine that has only Node and npm.
//   node scripts/run.mjs serve   install, build, then serve the bundled example plugins
//   node scripts/run.mjs test    install (with apt-get as root, the system tools the tests use), build, then
//                                run every check and test the project has
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' };

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}
function must(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}
function pnpmVersion() {
  const r = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// pnpm: the pinned version on PATH, else a private copy under .tools/ (no global install, no root).
function ensurePnpm() {
  const tools = join(root, '.tools', 'node_modules', '.bin');
  env.PATH = `${tools}${delimiter}${join(root, 'node_modules', '.bin')}${delimiter}${env.PATH}`;
  if (pnpmVersion() === pinned) return;
  console.error(`• installing pnpm@${pinned} into .tools/`);
  must('npm', [
    'install',
    '--prefix',
    join(root, '.tools'),
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

// Installs the missing ones with apt-get when this runs as root on Debian; otherwise names them and stops.
function ensureTestTools() {
  const missing = TEST_TOOLS.filter(([command]) => !have(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (have('apt-get') && process.getuid?.() === 0) {
    console.error(`• installing ${missing.join(', ')} with apt-get`);
    const aptEnv = { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } };
    must('apt-get', ['update', '-qq'], aptEnv);
    must('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], aptEnv);
    return;
  }
  console.error(
    `✖ the tests need ${missing.join(', ')}; on Debian: sudo apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}

function setup() {
  ensurePnpm();
  must('pnpm', ['install', '--frozen-lockfile']);
  must('pnpm', ['exec', 'turbo', 'run', 'build']);
}

// Sums the JSON reports the vitest runs left behind and prints one closing line.
function summarize() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const dirs = ['packages', 'examples', 'tests'].flatMap((d) =>
    existsSync(join(root, d)) ? readdirSync(join(root, d)).map((p) => join(root, d, p)) : [],
  );
  for (const dir of [...dirs, join(root, 'bench')]) {
    const file = join(dir, '.vitest-results.json');
    if (!existsSync(file)) continue;
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed;
}

const task = process.argv[2];
if (task === 'serve') {
  setup();
  // In this process, not a child: serve then watches this process's parent (npm), and ends when it is gone.
  const { serveExamples } = await import(pathToFileURL(join(root, 'scripts', 'serve-examples.mjs')).href);
  process.exit(await serveExamples(process.argv.slice(3)));
} else if (task === 'test') {
  ensureTestTools();
  setup();
  must('pnpm', ['exec', 'biome', 'check', '.']);
  must('pnpm', ['exec', 'turbo', 'run', 'typecheck']);
  const code = run('pnpm', ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue']);
  const failed = summarize();
  if (code !== 0 || failed > 0) process.exit(code || 1);
  // The ABI gate, against the fork point and the last released ABI (the last release record). This is what CI
  // runs, so --ci: a clone where the gate finds neither fails instead of passing on self-consistency alone.
  must('pnpm', ['exec', 'entropic-abi', 'check', '--ci']);
} else {
  console.error('usage: node scripts/run.mjs serve|test');
  process.exit(2);
}
