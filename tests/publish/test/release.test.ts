// The release flow of RELEASING.md, end to end, in a temporary copy of the repository: `pnpm release` consumes the
// pending changesets plus a minor for abi-headers and a patch for the rest:
// each package its own version and CHANGELOG.md, the ABI release recorded, a fresh clone's gate naming that release;
// `pnpm release:publish` publishes to a local Verdaccio and npm installs the server from it; then a server-only
// patch release and an additive ABI release show each package versioned on its own.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bump,
  bumped,
  gateInFreshClone,
  pendingBumps,
  publishedPackages,
  topEntry,
  type WorkspacePackage,
} from './support/release-repo.js';
import { commitAll, copyRepository, sh } from './support/repo-copy.js';
import { type Registry, startRegistry } from './support/verdaccio.js';

const MINUTES = 60_000;
const ABI = '@entropic-mcp/abi-headers';
const SERVER = '@entropic-mcp/server';

let registry: Registry;
let repo: string;
let project: string | undefined;
const timings: string[] = [];
let last = Date.now();
/** Notes how long the step that just ended took; printed at the end. */
function step(name: string): void {
  const now = Date.now();
  timings.push(`${name} ${((now - last) / 1000).toFixed(1)} s`);
  last = now;
}

const versions = (pkgs: WorkspacePackage[]) => new Map(pkgs.map((p) => [p.name, p.version]));
const abiDir = () => join(repo, 'packages', 'abi-headers');

const parse = (v: string) => v.split('.').map(Number) as [number, number, number];
const atLeast = (a: number[], b: number[]) =>
  a[0]! !== b[0]! ? a[0]! > b[0]! : a[1]! !== b[1]! ? a[1]! > b[1]! : a[2]! >= b[2]!;

/** Whether `version` satisfies a manifest range as changesets reads it (`workspace:^` is `^` of `current`). */
function inRange(range: string, current: string, version: string): boolean {
  let r = range.replace(/^workspace:/, '');
  if (r === '*' || r === '') return true;
  if (r === '^') r = `^${current}`;
  const v = parse(version);
  if (r.startsWith('>=')) return atLeast(v, parse(r.slice(2)));
  if (r.startsWith('^')) {
    const b = parse(r.slice(1));
    return atLeast(v, b) && (b[0] > 0 ? v[0] === b[0] : v[0] === 0 && v[1] === b[1]);
  }
  if (/^\d+\.\d+\.\d+$/.test(r)) return version === r;
  throw new Error(`the release test cannot read the range ${range}; teach inRange() about it`);
}

/**
 * The versions `.changeset/config.json` promises for `bumps`: each package its own highest bump; a package one of
 * whose dependencies leaves its range gets a patch, one whose peer dependency leaves its range a major
 * (`onlyUpdatePeerDependentsWhenOutOfRange`); a release within range moves no dependent
 * (`updateInternalDependencies: patch` only rewrites the ranges of packages released anyway).
 */
function expectedVersions(pkgs: WorkspacePackage[], bumps: Map<string, Bump>): Map<string, string> {
  const order: (Bump | undefined)[] = [undefined, 'patch', 'minor', 'major'];
  const type = new Map(bumps);
  const raise = (name: string, to: Bump) => {
    if (order.indexOf(to) > order.indexOf(type.get(name))) type.set(name, to);
  };
  const current = versions(pkgs);
  const leaves = (dep: string, range: string) => {
    const t = type.get(dep);
    const now = current.get(dep);
    return t !== undefined && now !== undefined && !inRange(range, now, bumped(now, t));
  };
  for (let changed = true; changed; ) {
    const before = JSON.stringify([...type]);
    for (const p of pkgs) {
      for (const [dep, range] of Object.entries(p.dependencies))
        if (leaves(dep, range)) raise(p.name, 'patch');
      for (const [dep, range] of Object.entries(p.peerDependencies))
        if (leaves(dep, range)) raise(p.name, 'major');
    }
    changed = JSON.stringify([...type]) !== before;
  }
  return new Map(
    pkgs.map((p) => [p.name, type.has(p.name) ? bumped(p.version, type.get(p.name)!) : p.version]),
  );
}

/** `pnpm release` in the copy, as a maintainer runs it. */
function release(): void {
  sh('pnpm', ['release'], repo);
}

function changeset(file: string, name: string, bump: Bump, text: string): void {
  writeFileSync(join(repo, '.changeset', file), `---\n"${name}": ${bump}\n---\n\n${text}\n`);
}

beforeAll(async () => {
  const started = startRegistry();
  repo = copyRepository();
  registry = await started;
  step('copy and install the repository, start verdaccio');
}, 10 * MINUTES);

afterAll(async () => {
  console.log(`release test steps: ${timings.join(', ')}`);
  await registry?.stop();
  for (const dir of [repo, project]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('pnpm release: the first release, from the pending changesets', () => {
  let before: WorkspacePackage[];
  let after: WorkspacePackage[];
  let expected: Map<string, string>;
  let gate: { code: number; text: string };

  beforeAll(() => {
    before = publishedPackages(repo);
    // The repository's own pending changesets (none on a release commit, many between releases), plus a minor for
    // abi-headers and a patch for every other package, as the next release might be: each package is then released.
    // Whether they land on one version depends on what is pending; the second release below shows them apart.
    for (const p of before)
      changeset(
        `release-check-${p.dir.split('/').pop()}.md`,
        p.name,
        p.name === ABI ? 'minor' : 'patch',
        'A change.',
      );
    commitAll(repo, 'changesets for the release check');
    const bumps = pendingBumps(repo);
    expected = expectedVersions(before, bumps);
    release();
    step('pnpm release (first)');
    after = publishedPackages(repo);
    gate = gateInFreshClone(repo);
    step('gate in a fresh clone');
  }, 5 * MINUTES);

  it('consumed every changeset and made one release commit with a clean work tree', () => {
    expect([...pendingBumps(repo).keys()]).toEqual([]);
    expect(sh('git', ['status', '--porcelain'], repo)).toBe('');
    expect(sh('git', ['log', '-1', '--format=%s'], repo)).toMatch(/^ci: release /);
  });

  it('gave each package the version its own changesets and the changesets config ask for', () => {
    expect(versions(after)).toEqual(expected);
    const released = after.filter((p) => versions(before).get(p.name) !== p.version);
    expect(released.length).toBe(after.length);
  });

  it('wrote a CHANGELOG.md for each released package whose top entry is its new version', () => {
    for (const p of after.filter((q) => versions(before).get(q.name) !== q.version)) {
      const file = join(repo, p.dir, 'CHANGELOG.md');
      expect(existsSync(file), file).toBe(true);
      expect(topEntry(readFileSync(file, 'utf8')), p.name).toBe(p.version);
    }
  });

  it('recorded the released ABI and listed the versions in the README', () => {
    const abi = versions(after).get(ABI)!;
    expect(existsSync(join(abiDir(), 'abi', 'releases', abi, 'release.json'))).toBe(true);
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    for (const p of after) expect(readme).toContain(`| \`${p.name}\` | ${p.version} |`);
  });

  it('the gate in a fresh clone of that commit compares with that release', () => {
    const abi = versions(after).get(ABI)!;
    expect(gate.code, gate.text).toBe(0);
    expect(gate.text).toContain(
      `release: release ${ABI}@${abi} (recorded in packages/abi-headers/abi/releases/${abi})`,
    );
    expect(gate.text).toContain(
      `release ${abi} checked against release ${versions(before).get(ABI)} before it`,
    );
  });

  describe('pnpm release:publish to a local registry, then npm install', () => {
    let server: string;
    beforeAll(() => {
      server = versions(publishedPackages(repo)).get(SERVER)!;
      const npmrc = join(repo, '.npmrc');
      appendFileSync(
        npmrc,
        `\n@entropic-mcp:registry=${registry.url}\n${registry.authKey}:_authToken=${registry.token}\n`,
      );
      sh('pnpm', ['release:publish', '--no-build'], repo, { npm_config_registry: registry.url });
      sh('git', ['checkout', '--', '.npmrc'], repo);
      step('pnpm release:publish');
      project = mkdtempSync(join(tmpdir(), 'entropic-release-consumer-'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
      writeFileSync(join(project, '.npmrc'), `@entropic-mcp:registry=${registry.url}\n`);
      const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', `${SERVER}@${server}`], {
        cwd: project,
        encoding: 'utf8',
        timeout: 10 * MINUTES,
        killSignal: 'SIGKILL',
      });
      if (install.status !== 0) throw new Error(`npm install failed:\n${install.stdout}${install.stderr}`);
      step('npm install the server');
    }, 15 * MINUTES);

    it('installs the new server, with its changelog and licence', () => {
      const dir = join(project!, 'node_modules', '@entropic-mcp', 'server');
      expect(
        (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version,
      ).toBe(server);
      expect(topEntry(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'))).toBe(server);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toContain('Apache License');
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `import('${SERVER}').then((m) => console.log(typeof m.McpServer))`],
        {
          cwd: project,
          encoding: 'utf8',
        },
      );
      expect(run.stdout.trim(), run.stderr).toBe('function');
    });
  });

  describe('a second release: a server-only patch', () => {
    let mid: WorkspacePackage[];
    let next: Map<string, string>;
    beforeAll(() => {
      mid = publishedPackages(repo);
      changeset('server-fix.md', SERVER, 'patch', 'A fix in the server.');
      commitAll(repo, 'server: a fix');
      release();
      step('pnpm release (server patch)');
      next = versions(publishedPackages(repo));
    }, 5 * MINUTES);

    it('bumps the server only: its dependents take a patch within their ranges, as the config says', () => {
      expect(next).toEqual(expectedVersions(mid, new Map([[SERVER, 'patch' as Bump]])));
      const moved = mid.filter((p) => next.get(p.name) !== p.version).map((p) => p.name);
      expect(moved).toEqual([SERVER]);
      expect(next.get(SERVER)).toBe(bumped(mid.find((p) => p.name === SERVER)!.version, 'patch'));
    });
  });

  describe('a third release: an additive ABI change with its minor changeset', () => {
    let was: string;
    let now: string;
    let added: number;
    let unversioned: { code: number; text: string };
    let pending: { code: number; text: string };
    let released: { code: number; text: string };
    beforeAll(() => {
      was = versions(publishedPackages(repo)).get(ABI)!;
      const error = join(abiDir(), 'src', 'abi', 'error.ts');
      // After the last enumerator of the error enum, the next number: an additive change.
      const text = readFileSync(error, 'utf8');
      const last = /(ENTROPIC_ERROR_\w+ = (\d+),\n)\}/.exec(text);
      if (last === null) throw new Error(`no last enumerator followed by } in ${error}`);
      added = Number(last[2]) + 1;
      const entry = `  /** Added in a later release. */\n  ENTROPIC_ERROR_ADDED_LATER = ${added},\n`;
      writeFileSync(error, text.replace(last[0], `${last[1]}${entry}}`));
      sh('pnpm', ['exec', 'entropic-abi', 'generate', '--quiet'], repo);
      sh('pnpm', ['exec', 'entropic-abi', 'lock'], repo);
      commitAll(repo, 'abi-headers: append ENTROPIC_ERROR_ADDED_LATER');
      unversioned = gateInFreshClone(repo);
      changeset('abi-added-later.md', ABI, 'minor', 'New error code `ENTROPIC_ERROR_ADDED_LATER`.');
      commitAll(repo, 'abi-headers: changeset for ENTROPIC_ERROR_ADDED_LATER');
      pending = gateInFreshClone(repo);
      release();
      step('ABI change and pnpm release (abi-headers minor)');
      now = versions(publishedPackages(repo)).get(ABI)!;
      released = gateInFreshClone(repo);
      step('gates in fresh clones');
    }, 5 * MINUTES);

    it('before its release, the gate compares the change with the last release: refused, then versioned', () => {
      const recorded = `release: release ${ABI}@${was} (recorded in packages/abi-headers/abi/releases/${was})`;
      expect(unversioned.code, unversioned.text).toBe(1);
      expect(unversioned.text).toContain(recorded);
      expect(unversioned.text).toContain(`appended ENTROPIC_ERROR_ADDED_LATER = ${added} [additive]`);
      expect(pending.code, pending.text).toBe(0);
      expect(pending.text).toContain(recorded);
    });

    it('bumps abi-headers a minor and the gate then compares with the new release', () => {
      expect(now).toBe(bumped(was, 'minor'));
      expect(existsSync(join(abiDir(), 'abi', 'releases', now, 'abi.lock.json'))).toBe(true);
      expect(released.code, released.text).toBe(0);
      expect(released.text).toContain(
        `release: release ${ABI}@${now} (recorded in packages/abi-headers/abi/releases/${now})`,
      );
      expect(released.text).toContain(`release ${now} checked against release ${was} before it`);
    });
  });
});
