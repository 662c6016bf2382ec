// A temporary copy of the repository to version and publish from: the files git knows (tracked, and new ones
// not ignored) plus the built dist/ of each published package (and the loader's prebuilds when there are some), in
// a fresh git repository of its own, with its dependencies installed by pnpm from the local store.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const PUBLISHED = ['abi-headers', 'codegen', 'server', 'redis', 'loader', 'serve'] as const;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'publish check',
  GIT_AUTHOR_EMAIL: 'publish-check@localhost',
  GIT_COMMITTER_NAME: 'publish check',
  GIT_COMMITTER_EMAIL: 'publish-check@localhost',
};

export function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      env: { ...process.env, ...GIT_ENV, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    );
  }
}

export function copyRepository(): string {
  const copy = mkdtempSync(join(tmpdir(), 'entropic-publish-repo-'));
  const listed = sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO_ROOT);
  for (const file of listed.split('\0')) {
    if (file === '' || !existsSync(join(REPO_ROOT, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(copy, file));
  }
  // Every package under packages/ is published (changeset publish takes them all), so each needs its build.
  for (const name of readdirSync(join(REPO_ROOT, 'packages'))) {
    const dist = join(REPO_ROOT, 'packages', name, 'dist');
    if (!existsSync(join(REPO_ROOT, 'packages', name, 'package.json'))) continue;
    if (!existsSync(dist)) throw new Error(`${dist} is missing: build the packages first`);
    cpSync(dist, join(copy, 'packages', name, 'dist'), { recursive: true });
  }
  // The loader's prebuilds and their stamp, when the repository has them: its prepack step then checks the stamp
  // against the sources and compiles only if they changed.
  for (const part of ['prebuilds', '.prebuild-stamp.json']) {
    const from = join(REPO_ROOT, 'packages', 'loader', part);
    if (existsSync(from)) cpSync(from, join(copy, 'packages', 'loader', part), { recursive: true });
  }
  sh('git', ['init', '-q', '-b', 'main'], copy);
  sh('git', ['add', '-A'], copy);
  sh('git', ['commit', '-q', '-m', 'base'], copy);
  sh('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], copy);
  return copy;
}

export function commitAll(dir: string, message: string): void {
  sh('git', ['add', '-A'], dir);
  sh('git', ['commit', '-q', '-m', message], dir);
}
