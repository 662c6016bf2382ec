// The few git operations the gate needs: resolving refs, reading files at a ref, extracting a folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

function git(cwd: string, args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`git could not be started: ${r.error.message}`);
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** The top folder of the git work tree containing `cwd`, or null outside a repository. */
export function repoRoot(cwd: string): string | null {
  const r = git(cwd, ['rev-parse', '--show-toplevel']);
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The commit a ref names, or null when it names none. */
export function resolveCommit(cwd: string, ref: string): string | null {
  const r = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return r.status === 0 ? r.stdout.trim() : null;
}

export interface BaseChoice {
  commit: string;
  /** How the base was chosen, for the report. */
  label: string;
}

/** True when `paths` have uncommitted changes (staged, unstaged or untracked). */
export function hasLocalChanges(cwd: string, paths: string[]): boolean {
  const r = git(cwd, ['status', '--porcelain', '--untracked-files=all', '--', ...paths]);
  return r.status === 0 && r.stdout.trim() !== '';
}

/**
 * The default base when `--base` is absent: the merge-base of HEAD with `origin/main` (else `main`),
 * when that exists and is not HEAD itself. When it is HEAD (on main, or a branch without commits of
 * its own) and `watched` paths have uncommitted changes, HEAD is the base; otherwise there is none,
 * and only the self-consistency checks run.
 */
export function defaultBase(cwd: string, watched: string[]): BaseChoice | null {
  const head = resolveCommit(cwd, 'HEAD');
  if (!head) return null;
  for (const ref of ['origin/main', 'main']) {
    if (!resolveCommit(cwd, ref)) continue;
    const r = git(cwd, ['merge-base', 'HEAD', ref]);
    if (r.status !== 0) continue;
    const commit = r.stdout.trim();
    if (commit !== head) return { commit, label: `merge-base of HEAD and ${ref} (${commit.slice(0, 10)})` };
    break;
  }
  if (hasLocalChanges(cwd, watched))
    return { commit: head, label: `HEAD (${head.slice(0, 10)}; uncommitted changes)` };
  return null;
}

/** The content of `path` (relative to the repository root) at `ref`, or null when absent there. */
export function showFile(cwd: string, ref: string, path: string): string | null {
  const r = git(cwd, ['show', `${ref}:${path}`]);
  return r.status === 0 ? r.stdout : null;
}

/** Names of the entries of folder `path` at `ref` (empty when the folder is absent). */
export function listFolder(cwd: string, ref: string, path: string): string[] {
  const r = git(cwd, ['ls-tree', '--name-only', `${ref}:${path}`]);
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : [];
}

/** Writes the tree of `paths` at `ref` below `dest`, keeping their repository-relative layout. */
export function extractPaths(cwd: string, ref: string, paths: string[], dest: string): void {
  // Which of them exist at `ref`, in one call (ls-tree names each path it finds, relative to the top folder).
  const listed = git(cwd, [
    '--literal-pathspecs',
    'ls-tree',
    '-z',
    '--full-tree',
    '--name-only',
    ref,
    '--',
    ...paths,
  ]);
  const found = new Set(listed.status === 0 ? listed.stdout.split('\0') : []);
  const present = paths.filter((p) => found.has(p));
  mkdirSync(dest, { recursive: true });
  if (present.length === 0) return;
  const archive = spawnSync('git', ['archive', '--format=tar', ref, '--', ...present], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr.toString().trim()}`);
  const untar = spawnSync('tar', ['-x', '-C', dest], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`extracting ${ref} failed: ${untar.stderr.toString().trim()}`);
}
