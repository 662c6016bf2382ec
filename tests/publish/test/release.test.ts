// The release flow of RELEASING.md, end to end, in one temporary copy of the repository with one local Verdaccio.
// `pnpm release` consumes the pending changesets plus a minor for abi-headers and a patch for the rest: each
// package its own version and CHANGELOG.md, the ABI release recorded, a fresh clone's gate naming that release.
// `pnpm release:publish` publishes them all (workspace: ranges rewritten, the loader with its prebuilds and without
// serve's bin, OpenTelemetry SDK or yaml); plain npm installs @entropic-mcp/server and @entropic-mcp/serve (which
// brings the loader) from it into an empty project (no install-script warning, no Redis client), and that project
// builds a plugin and serves it to the official SDK client with serve's `entropic-mcp`. Then a server minor
// (versioned, then undone), a server-only patch release and an additive ABI release show each package versioned
// on its own.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
import { expectedVersions, versions } from './support/release-rules.js';
import { commitAll, copyRepository, sh } from './support/repo-copy.js';
import { stepClock } from './support/steps.js';
import { packument, type Registry, startRegistry } from './support/verdaccio.js';

const MINUTES = 60_000;
const ABI = '@entropic-mcp/abi-headers';
const SERVER = '@entropic-mcp/server';
const LOADER = '@entropic-mcp/loader';
const SERVE = '@entropic-mcp/serve';

let registry: Registry;
let repo: string;
let project: string | undefined;
const { step, summary } = stepClock();

const abiDir = () => join(repo, 'packages', 'abi-headers');

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
  await registry?.stop();
  step('stop verdaccio (its CPU counts here)');
  console.log(`release test steps: ${summary()}`);
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

  describe('pnpm release:publish to a local registry, then npm install in an empty project', () => {
    let released: Map<string, string>;
    let installOutput: string;
    const published = async (name: string) => {
      const doc = await packument(registry, name);
      return doc.versions[released.get(name)!]!;
    };
    const installed = (name: string) =>
      (
        JSON.parse(readFileSync(join(project!, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;

    beforeAll(() => {
      released = versions(publishedPackages(repo));
      const npmrc = join(repo, '.npmrc');
      appendFileSync(
        npmrc,
        `\n@entropic-mcp:registry=${registry.url}\n${registry.authKey}:_authToken=${registry.token}\n`,
      );
      sh('pnpm', ['release:publish', '--no-build'], repo, { npm_config_registry: registry.url });
      sh('git', ['checkout', '--', '.npmrc'], repo);
      step('pnpm release:publish');
      project = mkdtempSync(join(tmpdir(), 'entropic-release-consumer-'));
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      // Our scope comes from the local registry; third-party dependencies from the default one.
      writeFileSync(join(project, '.npmrc'), `@entropic-mcp:registry=${registry.url}\n`);
      // Plain npm, install scripts on; serve brings the loader. A stalled install (waiting on the registry) is
      // killed and reported instead of holding the run.
      const install = spawnSync(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          `${SERVER}@${released.get(SERVER)}`,
          `${SERVE}@${released.get(SERVE)}`,
        ],
        { cwd: project, encoding: 'utf8', timeout: 10 * MINUTES, killSignal: 'SIGKILL' },
      );
      installOutput = `${install.stdout}${install.stderr}`;
      if (install.status !== 0) throw new Error(`npm install failed:\n${installOutput}`);
      step('npm install the server and serve');
    }, 15 * MINUTES);

    it('published every package at its new version, with workspace: ranges rewritten', async () => {
      for (const [name, version] of released) {
        const doc = await packument(registry, name);
        expect(doc['dist-tags'].latest, name).toBe(version);
        expect(JSON.stringify(doc.versions[version]), name).not.toContain('workspace:');
      }
      const loader = await published(LOADER);
      expect(loader.dependencies?.[SERVER]).toBe(`^${released.get(SERVER)}`);
      expect(loader.dependencies?.[ABI]).toBe(`^${released.get(ABI)}`);
      expect((await published(SERVE)).dependencies?.[LOADER]).toBe(`^${released.get(LOADER)}`);
    });

    it('the published loader is the library alone: no bin, no OpenTelemetry SDK, no yaml', async () => {
      const loader = await published(LOADER);
      expect(loader.bin).toBeUndefined();
      const names = Object.keys(loader.dependencies ?? {});
      expect(
        names.filter((n) => n === 'yaml' || (n.startsWith('@opentelemetry/') && n !== '@opentelemetry/api')),
      ).toEqual([]);
      expect(Object.keys((await published(SERVE)).bin ?? {})).toEqual(['entropic-mcp']);
    });

    it('the published loader carries its prebuilds', async () => {
      const tarball = join(project!, 'loader.tgz');
      const body = await (await fetch((await published(LOADER)).dist.tarball)).arrayBuffer();
      writeFileSync(tarball, Buffer.from(body));
      const listing = sh('tar', ['tzf', tarball], project!);
      expect(listing).toContain('package/prebuilds/linux-x64/@entropic-mcp+loader.glibc.node');
      expect(listing).toContain('package/prebuilds/linux-x64/entropic_plugin_host.glibc');
      expect(listing).toContain('package/prebuilds/linux-x64/entropic_plugin_host.musl');
    });

    it('installs the new server, with its changelog and licence', () => {
      const server = released.get(SERVER)!;
      const dir = join(project!, 'node_modules', '@entropic-mcp', 'server');
      expect(installed(SERVER)).toBe(server);
      expect(topEntry(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'))).toBe(server);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toContain('Apache License');
      const run = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `import('${SERVER}').then((m) => console.log(typeof m.McpServer))`],
        { cwd: project, encoding: 'utf8' },
      );
      expect(run.stdout.trim(), run.stderr).toBe('function');
    });

    it('installs with plain npm without an install-script warning, and without the Redis packages', () => {
      expect(installOutput).not.toMatch(/install-scripts|allowScripts|install script/i);
      expect(existsSync(join(project!, 'node_modules', 'ioredis'))).toBe(false);
      expect(existsSync(join(project!, 'node_modules', '@entropic-mcp', 'redis'))).toBe(false);
    });

    it(
      'installs serve with its loader, builds a plugin and serves it to the SDK client with entropic-mcp',
      async () => {
        expect(installed(LOADER)).toBe(released.get(LOADER));
        expect(installed(SERVE)).toBe(released.get(SERVE));
        const bin = join(project!, 'node_modules', '.bin');
        const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
        sh('npx', ['--no-install', 'entropic-mcp', 'new-plugin', 'greeter'], project!, env);
        sh('make', ['-C', 'greeter'], project!, env);
        const transport = new StdioClientTransport({
          command: join(bin, 'entropic-mcp'),
          args: [
            'serve',
            '--plugin',
            join(project!, 'greeter', 'build', 'libgreeter.so'),
            '--root',
            project!,
          ],
          cwd: project,
          env: env as Record<string, string>,
          stderr: 'pipe',
        });
        const client = new Client({ name: 'release-check', version: '1.0.0' });
        await client.connect(transport);
        try {
          const result = await client.callTool({ name: 'greeter.hello', arguments: { name: 'registry' } });
          const content = result.content as { type: string; text?: string }[];
          expect(content[0]?.text).toBe('Hello, registry!');
        } finally {
          await client.close();
        }
        step('a plugin built and served from the installed packages');
      },
      5 * MINUTES,
    );
  });

  describe('a server minor, versioned then undone: its dependents loader and serve take a patch', () => {
    let mid: WorkspacePackage[];
    let planned: Map<string, string>;
    beforeAll(() => {
      mid = publishedPackages(repo);
      changeset('server-feature.md', SERVER, 'minor', 'A feature in the server.');
      sh('pnpm', ['exec', 'changeset', 'version'], repo);
      planned = versions(publishedPackages(repo));
      sh('git', ['reset', '-q', '--hard'], repo);
      sh('git', ['clean', '-fdq'], repo);
      step('changeset version (server minor), undone');
    }, 5 * MINUTES);

    it('versions each package on its own: the changed server, its dependent loader and serve, nothing else', () => {
      const was = versions(mid);
      expect(planned.get(SERVER)).toBe(bumped(was.get(SERVER)!, 'minor'));
      expect(planned.get(LOADER)).toBe(bumped(was.get(LOADER)!, 'patch'));
      expect(planned.get(SERVE)).toBe(bumped(was.get(SERVE)!, 'patch'));
      // The Redis package's peer range on the server spans its 0.x releases (>=0.1.0 <1), so a server minor
      // leaves it as it is; serve's optional peer range on the Redis package (>=0.1.0) stays satisfied too.
      for (const name of [...was.keys()].filter((n) => ![SERVER, LOADER, SERVE].includes(n)))
        expect(planned.get(name), name).toBe(was.get(name));
      expect(planned).toEqual(expectedVersions(mid, new Map([[SERVER, 'minor' as Bump]])));
      expect(sh('git', ['status', '--porcelain'], repo)).toBe('');
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
