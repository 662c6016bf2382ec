// What the gate compares the work tree with: a commit (the merge-base, an explicit --base), a release tag or
// a packed release; each is opened into one side of a comparison (release records: see records.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../model/errors.js';
import { defaultBase, extractPaths, resolveCommit } from './git.js';
import { compareVersions, RELEASE_VERSION } from './release.js';
import { type AbiSide, DEFINITIONS_DIR, LOCK_FILE, readState } from './state.js';

/** The prefix of the git tags `changeset publish` writes for abi-headers releases. */
export const RELEASE_TAG_PREFIX = '@entropic-mcp/abi-headers@';

export interface OpenedBase {
  side: AbiSide;
  /** The base's abi-headers folder, when it was extracted (its release records are read from it). */
  root?: string;
}

export interface BaseSource {
  /** Names the base in messages and notes. */
  label: string;
  /** The commit, when the base is one (used for `git checkout` hints). */
  commit?: string;
  /** Reads the base, extracting it below `dir` when needed; a string says why there is nothing to compare. */
  open(dir: string): OpenedBase | string;
}

/** The files of the abi-headers package the comparison reads (abi/ holds the reference and the records). */
const BASE_FILES = [DEFINITIONS_DIR, LOCK_FILE, 'package.json', 'abi'];

function openPackage(root: string, label: string): OpenedBase | string {
  if (!existsSync(join(root, DEFINITIONS_DIR)))
    return `base ${label} has no ABI definitions; nothing to compare with`;
  try {
    return { side: readState(root), root };
  } catch (e) {
    return `base ${label}: its definitions do not read (${(e as Error).message}); comparison skipped`;
  }
}

function fromCommit(repo: string, commit: string, label: string, pkg: string): BaseSource {
  return {
    label,
    commit,
    open(dir) {
      extractPaths(
        repo,
        commit,
        BASE_FILES.map((p) => `${pkg}/${p}`),
        dir,
      );
      return openPackage(join(dir, pkg), label);
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
  if (!commit) throw new UsageError(`--base ${base} does not name a commit in ${repo}`);
  return fromCommit(repo, commit, `${base} (${commit.slice(0, 10)})`, pkg);
}

/** The highest `@entropic-mcp/abi-headers@X.Y.Z` tag (pre-releases excluded), or null. */
export function latestReleaseTag(repo: string): string | null {
  const r = spawnSync('git', ['tag', '--list', `${RELEASE_TAG_PREFIX}*`], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) return null;
  const tags = r.stdout
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => RELEASE_VERSION.test(t.slice(RELEASE_TAG_PREFIX.length)));
  tags.sort((a, b) =>
    compareVersions(a.slice(RELEASE_TAG_PREFIX.length), b.slice(RELEASE_TAG_PREFIX.length)),
  );
  return tags.at(-1) ?? null;
}

/** A packed abi-headers tarball (`pnpm pack`, or the registry's); its `package/` folder is the base. */
export function fromTarball(file: string): BaseSource {
  const label = `the packed release ${file}`;
  return {
    label,
    open(dir) {
      const r = spawnSync('tar', ['-xzf', file, '-C', dir], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`extracting ${file} failed: ${(r.stderr || '').trim()}`);
      return openPackage(join(dir, 'package'), label);
    },
  };
}

/** A release tag (or any ref) as a base. */
export function fromReleaseRef(repo: string, ref: string, pkg: string, option: string): BaseSource {
  const commit = resolveCommit(repo, ref);
  if (!commit)
    throw new UsageError(`--release ${option} does not name a release record, tag, commit or .tgz file`);
  return fromCommit(repo, commit, `release ${ref} (${commit.slice(0, 10)})`, pkg);
}

/** A side that is already read (a release record). */
export function fromSide(label: string, side: AbiSide): BaseSource {
  return { label, open: () => ({ side }) };
}
