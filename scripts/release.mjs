#!/usr/bin/env node
// Cuts a release of the published packages, and publishes one (RELEASING.md tells the whole flow):
//   node scripts/release.mjs version [--no-commit]   (`pnpm release`) consumes the pending changesets: new versions
//        and CHANGELOG.md files (changeset version), the lockfile, the record of a new abi-headers version
//        (entropic-abi record-release), the README's versions table; checks them and makes the release commit
//   node scripts/release.mjs publish [--no-build] [--to-npm] [changeset publish options]   (`pnpm release:publish`)
//        builds, then publishes every package whose version is not on the configured registry yet (and tags it)
// The published packages are the workspace's non-private ones, as pnpm lists them: a new package needs no change.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' };
const ABI_HEADERS = '@entropic-mcp/abi-headers';
/** The public registry; publishing there needs `--to-npm`, so a test or a slip never reaches it. */
const PUBLIC_REGISTRY = /^https?:\/\/registry\.(npmjs\.org|yarnpkg\.com)\/?$/;
/** The README's versions table lies between these two lines, written by `pnpm release`. */
export const TABLE_BEGIN = '<!-- versions: written by `pnpm release`; do not edit by hand -->';
export const TABLE_END = '<!-- /versions -->';

class ReleaseError extends Error {}

/** Runs a command from the repository root with its output shown; a failure stops the release, naming it. */
function run(cmd, args, what = `${cmd} ${args.join(' ')}`) {
  console.error(`• ${what}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  console.error(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (r.status !== 0)
    throw new ReleaseError(`\`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
}

/** Runs a command from the repository root and returns what it printed. */
function read(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new ReleaseError(`\`${cmd} ${args.join(' ')}\` failed:\n${r.stderr}`);
  return r.stdout;
}

/** The published packages of the workspace (pnpm's list, private ones left out), by name, in name order. */
export function publishedPackages(cwd = root) {
  const r = spawnSync('pnpm', ['ls', '-r', '--depth', '-1', '--json'], { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new ReleaseError(`pnpm ls failed:\n${r.stderr}`);
  return JSON.parse(r.stdout)
    .filter((p) => p.private !== true && p.name !== undefined)
    .map((p) => ({ name: p.name, version: p.version, dir: relative(cwd, p.path) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The changeset files waiting in .changeset/. */
function pendingChangesets() {
  const dir = join(root, '.changeset');
  return readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
}

/** The first `## X.Y.Z` heading of a CHANGELOG.md (changesets writes the newest first), or null. */
export function topChangelogVersion(text) {
  return /^## (\S+)$/m.exec(text)?.[1] ?? null;
}

/** The README's versions table for `packages`, between its marker lines. */
export function versionsTable(packages) {
  const rows = packages.map((p) => {
    const changelog = existsSync(join(root, p.dir, 'CHANGELOG.md'))
      ? `[CHANGELOG](${p.dir}/CHANGELOG.md)`
      : 'not released yet';
    return `| \`${p.name}\` | ${p.version} | ${changelog} |`;
  });
  return [
    TABLE_BEGIN,
    '',
    '| package | version | changes |',
    '| --- | --- | --- |',
    ...rows,
    '',
    TABLE_END,
  ].join('\n');
}

/** Replaces the README's versions table (between the markers) with the one for `packages`. */
function writeVersionsTable(packages) {
  const file = join(root, 'README.md');
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  if (begin < 0 || end < begin)
    throw new ReleaseError(`README.md has no versions table (the lines ${TABLE_BEGIN} and ${TABLE_END})`);
  writeFileSync(file, text.slice(0, begin) + versionsTable(packages) + text.slice(end + TABLE_END.length));
}

/** The entropic-abi CLI must be built to record the release; builds codegen when it is not. */
function ensureCodegenBuilt() {
  if (existsSync(join(root, 'packages', 'codegen', 'dist', 'cli.js'))) return;
  run('pnpm', [
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@entropic-mcp/codegen',
    '--output-logs=errors-only',
  ]);
}

function version(args) {
  const commit = !args.includes('--no-commit');
  const unknown = args.filter((a) => a !== '--no-commit');
  if (unknown.length > 0)
    throw new ReleaseError(`unknown argument ${unknown[0]} (usage: pnpm release [--no-commit])`);
  const dirty = read('git', ['status', '--porcelain']).trim();
  if (dirty !== '')
    throw new ReleaseError(`the work tree has uncommitted changes; commit or stash them first:\n${dirty}`);
  const pending = pendingChangesets();
  if (pending.length === 0)
    throw new ReleaseError('no pending changesets in .changeset/: nothing to release');
  const before = new Map(publishedPackages().map((p) => [p.name, p.version]));

  run('pnpm', ['exec', 'changeset', 'version'], `changeset version (${pending.length} changesets)`);
  const after = publishedPackages();
  const released = after.filter((p) => before.get(p.name) !== p.version);
  if (released.length === 0) throw new ReleaseError('changeset version released no package');
  // Internal ranges are `workspace:` ones; the lockfile still records each importer's specifiers and versions.
  run('pnpm', ['install', '--lockfile-only', '--prefer-offline'], 'pnpm install --lockfile-only');
  if (released.some((p) => p.name === ABI_HEADERS)) {
    ensureCodegenBuilt();
    run('pnpm', ['exec', 'entropic-abi', 'record-release']);
  }
  writeVersionsTable(after);

  // The checks: every released package's CHANGELOG.md opens with its new version; the lockfile is current; the
  // files are formatted; and the ABI gate passes on the release (this release's record against the one before).
  for (const p of released) {
    const file = join(root, p.dir, 'CHANGELOG.md');
    const top = existsSync(file) ? topChangelogVersion(readFileSync(file, 'utf8')) : null;
    if (top !== p.version)
      throw new ReleaseError(`${p.dir}/CHANGELOG.md opens with ${top}, not ${p.version}`);
  }
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], 'pnpm install --frozen-lockfile');
  // The files the release wrote (the rest of the tree was checked when it was merged): formatted, then checked.
  const written = read('git', ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter((line) => line.length > 3 && !line.startsWith(' D'))
    .map((line) => line.slice(3));
  run(
    'pnpm',
    [
      'exec',
      'biome',
      'check',
      '--write',
      '--files-ignore-unknown=true',
      '--no-errors-on-unmatched',
      ...written,
    ],
    'biome check --write (the files the release wrote)',
  );
  ensureCodegenBuilt();
  run('pnpm', ['exec', 'entropic-abi', 'check', '--ci']);

  const list = released.map((p) => `${p.name.replace('@entropic-mcp/', '')} ${p.version}`);
  const subject = `ci: release ${list.join(', ')}`;
  const message = [
    subject.length <= 72 ? subject : `ci: release ${released.length} packages`,
    '',
    ...released.map((p) => `${p.name} ${before.get(p.name)} -> ${p.version}`),
    '',
    `${pending.length} changesets consumed.`,
  ].join('\n');
  if (commit) {
    run('git', ['add', '-A'], 'git add -A');
    const r = spawnSync('git', ['commit', '-q', '-F', '-'], {
      cwd: root,
      env,
      input: message,
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new ReleaseError('git commit failed');
  }
  console.log(`\n${message}\n`);
  console.log(
    commit
      ? 'Made the release commit. Next: `npm test`, then `pnpm release:publish` (see RELEASING.md).'
      : 'The release is in the work tree, not committed (--no-commit). Commit it with the message above.',
  );
}

/** The registry npm and pnpm would publish `@entropic-mcp/*` to, from the scope's setting or the default. */
function registryOf() {
  const scoped = read('pnpm', ['config', 'get', '@entropic-mcp:registry']).trim();
  const plain = read('pnpm', ['config', 'get', 'registry']).trim();
  return scoped !== '' && scoped !== 'undefined' ? scoped : plain;
}

function publish(args) {
  const build = !args.includes('--no-build');
  const toNpm = args.includes('--to-npm');
  const rest = args.filter((a) => a !== '--no-build' && a !== '--to-npm');
  const registry = registryOf();
  if (PUBLIC_REGISTRY.test(registry) && !toNpm)
    throw new ReleaseError(
      `the registry is ${registry}, the public one: pass --to-npm to publish there on purpose ` +
        '(or set @entropic-mcp:registry in .npmrc to another registry)',
    );
  if (build) run('pnpm', ['exec', 'turbo', 'run', 'build', 'prebuilds', '--output-logs=errors-only']);
  run('pnpm', ['exec', 'changeset', 'publish', ...rest], `changeset publish to ${registry}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [task, ...args] = process.argv.slice(2);
  try {
    if (task === 'version') version(args);
    else if (task === 'publish') publish(args);
    else {
      console.error(
        'usage: node scripts/release.mjs version [--no-commit] | publish [--no-build] [--to-npm]',
      );
      process.exit(2);
    }
  } catch (e) {
    if (!(e instanceof ReleaseError)) throw e;
    console.error(`✖ ${e.message}`);
    process.exit(1);
  }
}
