// What the release test reads in its copy of the repository: the published packages as pnpm lists them, the
// pending changesets' bumps, the CHANGELOG.md heads, and the ABI gate run in a fresh clone as CI runs it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sh } from './repo-copy.js';

export type Bump = 'patch' | 'minor' | 'major';
const ORDER: readonly Bump[] = ['patch', 'minor', 'major'];

export interface WorkspacePackage {
  name: string;
  version: string;
  /** The folder, from the repository root. */
  dir: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

interface Listed {
  name?: string;
  path: string;
  private?: boolean;
}
/** pnpm's list of each root's workspace packages: a release changes their manifests, never which they are. */
const listings = new Map<string, Listed[]>();

/** The workspace's published (non-private) packages, as pnpm lists them, with their manifests as they are now. */
export function publishedPackages(root: string): WorkspacePackage[] {
  let listed = listings.get(root);
  if (listed === undefined) {
    listed = JSON.parse(sh('pnpm', ['ls', '-r', '--depth', '-1', '--json'], root)) as Listed[];
    listings.set(root, listed);
  }
  return listed
    .filter((p) => p.private !== true && p.name !== undefined)
    .map((p) => {
      const manifest = JSON.parse(readFileSync(join(p.path, 'package.json'), 'utf8')) as {
        version: string;
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      return {
        name: p.name as string,
        version: manifest.version,
        dir: p.path.slice(root.length + 1),
        dependencies: manifest.dependencies ?? {},
        peerDependencies: manifest.peerDependencies ?? {},
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The highest bump each package gets from the pending changesets in `.changeset/`. */
export function pendingBumps(root: string): Map<string, Bump> {
  const bumps = new Map<string, Bump>();
  const dir = join(root, '.changeset');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const head = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? '';
    for (const [, name, type] of head.matchAll(/^["']?([^"':\s]+)["']?\s*:\s*(patch|minor|major)\s*$/gm)) {
      const had = bumps.get(name as string);
      if (had === undefined || ORDER.indexOf(type as Bump) > ORDER.indexOf(had))
        bumps.set(name as string, type as Bump);
    }
  }
  return bumps;
}

/** `version` raised by `bump` (0.x versions too: a minor of 0.1.0 is 0.2.0). */
export function bumped(version: string, bump: Bump): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  if (bump === 'major') return `${major + 1}.0.0`;
  return bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

/** The version of the first `## X.Y.Z` entry of a CHANGELOG.md (changesets writes the newest on top). */
export function topEntry(changelog: string): string | undefined {
  return /^## (\S+)$/m.exec(changelog)?.[1];
}

/**
 * The ABI gate as `npm test` runs it in CI: a fresh clone of `main` (no tags), `check --ci` with CI set. The clone
 * is a local one (objects hard-linked, not packed and unpacked as through `file://`): the same branch, history and
 * refs, without a tag, for 0.7 s of CPU instead of 1.0 s.
 */
export function gateInFreshClone(repo: string): { code: number; text: string } {
  const clone = mkdtempSync(join(tmpdir(), 'entropic-release-clone-'));
  try {
    sh('git', ['clone', '-q', '--no-tags', '--single-branch', '--branch', 'main', repo, clone], tmpdir());
    // The clone has no node_modules: the gate is the copy's built CLI, run in the clone.
    const cli = join(repo, 'packages', 'codegen', 'dist', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'check', '--ci'], {
      cwd: clone,
      env: { ...process.env, CI: 'true' },
      encoding: 'utf8',
    });
    return { code: run.status ?? -1, text: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}
