// What the gate compares the work tree with: a commit (the merge-base, an explicit --base) and, on
// request, the last released ABI (a release tag of abi-headers, or a packed tarball).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultBase, extractPaths, resolveCommit } from './git.js';
import { DEFINITIONS_DIR, LOCK_FILE } from './state.js';

/** The prefix of the git tags `changeset publish` writes for abi-headers releases. */
export const RELEASE_TAG_PREFIX = '@entropic-mcp/abi-headers@';

/** A bad option (an unknown ref, a missing tarball): the command answers with a usage error. */
export class CheckUsageError extends Error {}

export interface BaseSource {
  /** Names the base in messages and notes. */
  label: string;
  /** The commit, when the base is one (used for `git checkout` hints and to skip duplicates). */
  commit?: string;
  /** Writes the base's abi-headers files under `dir` and returns the package folder there. */
  extract(dir: string): string;
}

/** The files of the abi-headers package the comparison reads. */
const BASE_FILES = [DEFINITIONS_DIR, LOCK_FILE, 'package.json', 'abi'];

function fromCommit(repo: string, commit: string, label: string, pkg: string): BaseSource {
  return {
    label,
    commit,
    extract(dir) {
      extractPaths(
        repo,
        commit,
        BASE_FILES.map((p) => `${pkg}/${p}`),
        dir,
      );
      return join(dir, pkg);
    },
  };
}

/** The base commit: explicit, the default (merge-base or HEAD), or none (`null`). */
export function chooseBase(repo: string, base: string | null | undefined, pkg: string): BaseSource | null {
  if (base === null) return null;
  if (base === undefined) {
    const choice = defaultBase(repo, [pkg, '.changeset']);
    return choice ? fromCommit(repo, choice.commit, choice.label, pkg) : null;
  }
  const commit = resolveCommit(repo, base);
  if (!commit) throw new CheckUsageError(`--base ${base} does not name a commit in ${repo}`);
  return fromCommit(repo, commit, `${base} (${commit.slice(0, 10)})`, pkg);
}

function semverKey(version: string): number[] {
  return version
    .split(/[.+-]/)
    .slice(0, 3)
    .map((n) => Number.parseInt(n, 10) || 0);
}

/** The highest `@entropic-mcp/abi-headers@X.Y.Z` tag (pre-releases excluded), or null. */
export function latestReleaseTag(repo: string): string | null {
  const r = spawnSync('git', ['tag', '--list', `${RELEASE_TAG_PREFIX}*`], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) return null;
  const tags = r.stdout
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => /^\d+\.\d+\.\d+$/.test(t.slice(RELEASE_TAG_PREFIX.length)));
  tags.sort((a, b) => {
    const x = semverKey(a.slice(RELEASE_TAG_PREFIX.length));
    const y = semverKey(b.slice(RELEASE_TAG_PREFIX.length));
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
  return tags.at(-1) ?? null;
}

function fromTarball(file: string): BaseSource {
  return {
    label: `the packed release ${file}`,
    extract(dir) {
      const r = spawnSync('tar', ['-xzf', file, '-C', dir], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`extracting ${file} failed: ${(r.stderr || '').trim()}`);
      return join(dir, 'package');
    },
  };
}

/**
 * The released ABI to compare with: `latest` (the highest release tag; null with a note when there
 * is none), a tag or other ref, or the path of a packed abi-headers tarball (`.tgz`).
 */
export function chooseRelease(
  repo: string,
  release: string,
  pkg: string,
  notes: string[],
): BaseSource | null {
  if (/\.(tgz|tar\.gz)$/.test(release)) {
    const file = resolve(repo, release);
    if (!existsSync(file)) throw new CheckUsageError(`--release ${release}: no such tarball`);
    return fromTarball(file);
  }
  const ref = release === 'latest' ? latestReleaseTag(repo) : release;
  if (ref === null) {
    notes.push(
      `release: no ${RELEASE_TAG_PREFIX}X.Y.Z tag in this clone (nothing released yet, or tags not fetched); ` +
        'not compared with a released ABI',
    );
    return null;
  }
  const commit = resolveCommit(repo, ref);
  if (!commit) throw new CheckUsageError(`--release ${release} does not name a tag, commit or .tgz file`);
  return fromCommit(repo, commit, `release ${ref} (${commit.slice(0, 10)})`, pkg);
}
