// A real publish: `changeset version` and `changeset publish` from a temporary copy of the repository into a
// local Verdaccio registry, then plain npm installs @entropic-mcp/server and @entropic-mcp/serve (which brings the
// loader) from it into an empty project (no install-script warning, no Redis client), builds a plugin and serves it
// to the official SDK client with serve's `entropic-mcp`.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, copyRepository, PUBLISHED, sh, version } from './support/repo-copy.js';
import { type Registry, startRegistry } from './support/verdaccio.js';

const MINUTES = 60_000;
type Name = (typeof PUBLISHED)[number];

let registry: Registry;
let repo: string;
let project: string;
let installOutput: string;
const timings: string[] = [];
let last = Date.now();
/** Notes how long the step that just ended took; printed at the end, to see where the minutes go. */
function step(name: string): void {
  const now = Date.now();
  timings.push(`${name} ${((now - last) / 1000).toFixed(1)} s`);
  last = now;
}
const before = {} as Record<Name, string>;
const after = {} as Record<Name, string>;

interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
  dist: { tarball: string };
}
interface Packument {
  'dist-tags': { latest: string };
  versions: Record<string, Manifest>;
}

async function packument(name: Name): Promise<Packument> {
  const url = `${registry.url}${encodeURIComponent(`@entropic-mcp/${name}`)}`;
  // The registry may close an idle kept-alive socket just as fetch reuses it: one retry on a fresh one.
  const answer = await fetch(url).catch(() => fetch(url));
  expect(answer.status, name).toBe(200);
  return (await answer.json()) as Packument;
}

function bump(v: string, part: 'minor' | 'patch'): string {
  const [major, minor, patch] = v.split('.').map(Number) as [number, number, number];
  return part === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

beforeAll(async () => {
  registry = await startRegistry();
  step('start verdaccio');
  repo = copyRepository();
  step('copy and install the repository');
  for (const name of PUBLISHED) before[name] = version(repo, name);
  // Only this test's release plan: a minor change to the server, nothing else.
  const changesets = join(repo, '.changeset');
  for (const f of readdirSync(changesets))
    if (f.endsWith('.md') && f !== 'README.md') unlinkSync(join(changesets, f));
  writeFileSync(
    join(changesets, 'publish-check.md'),
    "---\n'@entropic-mcp/server': minor\n---\n\nPublish check.\n",
  );
  sh('pnpm', ['exec', 'changeset', 'version'], repo);
  commitAll(repo, 'version packages');
  step('changeset version');
  for (const name of PUBLISHED) after[name] = version(repo, name);
  writeFileSync(
    join(repo, '.npmrc'),
    [
      `registry=${registry.url}`,
      `@entropic-mcp:registry=${registry.url}`,
      `${registry.authKey}:_authToken=${registry.token}`,
      '',
    ].join('\n'),
  );
  sh('pnpm', ['exec', 'changeset', 'publish'], repo, { npm_config_registry: registry.url });
  step('changeset publish (with the prebuilds)');

  project = mkdtempSync(join(tmpdir(), 'entropic-publish-consumer-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // Our scope comes from the local registry; third-party dependencies from the default one.
  writeFileSync(join(project, '.npmrc'), `@entropic-mcp:registry=${registry.url}\n`);
  const install = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '@entropic-mcp/server', '@entropic-mcp/serve'],
    // A stalled install (waiting on the registry) is killed and reported instead of holding the run.
    { cwd: project, encoding: 'utf8', timeout: 10 * MINUTES, killSignal: 'SIGKILL' },
  );
  installOutput = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install failed:\n${installOutput}`);
  step('npm install in an empty project');
}, 15 * MINUTES);

afterAll(async () => {
  console.log(`publish test steps: ${timings.join(', ')}`);
  await registry?.stop();
  for (const dir of [repo, project]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('changeset publish to a local registry', () => {
  it('versions each package on its own: the changed server, its dependent loader and serve, nothing else', () => {
    expect(after.server).toBe(bump(before.server, 'minor'));
    expect(after.loader).toBe(bump(before.loader, 'patch'));
    expect(after.serve).toBe(bump(before.serve, 'patch'));
    // The Redis package's peer range on the server spans its 0.x releases (>=0.1.0 <1), so a server minor
    // leaves it as it is; serve's optional peer range on the Redis package (>=0.1.0) stays satisfied too.
    expect(after.redis).toBe(before.redis);
    expect(after['abi-headers']).toBe(before['abi-headers']);
    expect(after.codegen).toBe(before.codegen);
  });

  it('published every package at its new version, with workspace: ranges rewritten', async () => {
    for (const name of PUBLISHED) {
      const doc = await packument(name);
      expect(doc['dist-tags'].latest, name).toBe(after[name]);
      const manifest = doc.versions[after[name]]!;
      expect(JSON.stringify(manifest), name).not.toContain('workspace:');
    }
    const loader = (await packument('loader')).versions[after.loader]!;
    expect(loader.dependencies?.['@entropic-mcp/server']).toBe(`^${after.server}`);
    expect(loader.dependencies?.['@entropic-mcp/abi-headers']).toBe(`^${after['abi-headers']}`);
    const serve = (await packument('serve')).versions[after.serve]!;
    expect(serve.dependencies?.['@entropic-mcp/loader']).toBe(`^${after.loader}`);
  });

  it('the published loader is the library alone: no bin, no OpenTelemetry SDK, no yaml', async () => {
    const loader = (await packument('loader')).versions[after.loader]! as Manifest & { bin?: unknown };
    expect(loader.bin).toBeUndefined();
    const names = Object.keys(loader.dependencies ?? {});
    expect(
      names.filter((n) => n === 'yaml' || (n.startsWith('@opentelemetry/') && n !== '@opentelemetry/api')),
    ).toEqual([]);
    const serve = (await packument('serve')).versions[after.serve]! as Manifest & {
      bin?: Record<string, string>;
    };
    expect(Object.keys(serve.bin ?? {})).toEqual(['entropic-mcp']);
  });

  it('the published loader carries its prebuilds', async () => {
    const loader = (await packument('loader')).versions[after.loader]!;
    const tarball = join(project, 'loader.tgz');
    writeFileSync(tarball, Buffer.from(await (await fetch(loader.dist.tarball)).arrayBuffer()));
    const listing = sh('tar', ['tzf', tarball], project);
    expect(listing).toContain('package/prebuilds/linux-x64/@entropic-mcp+loader.glibc.node');
    expect(listing).toContain('package/prebuilds/linux-x64/entropic_plugin_host.glibc');
    expect(listing).toContain('package/prebuilds/linux-x64/entropic_plugin_host.musl');
  });

  it('installs with plain npm without an install-script warning, and without the Redis packages', () => {
    expect(installOutput).not.toMatch(/install-scripts|allowScripts|install script/i);
    expect(existsSync(join(project, 'node_modules', 'ioredis'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', '@entropic-mcp', 'redis'))).toBe(false);
  });

  it(
    'installs with plain npm into an empty project and serves a plugin to the SDK client',
    async () => {
      const installed = (name: Name): string =>
        (
          JSON.parse(
            readFileSync(join(project, 'node_modules', '@entropic-mcp', name, 'package.json'), 'utf8'),
          ) as Manifest
        ).version;
      expect(installed('server')).toBe(after.server);
      expect(installed('loader')).toBe(after.loader);
      expect(installed('serve')).toBe(after.serve);
      const bin = join(project, 'node_modules', '.bin');
      const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
      sh('npx', ['--no-install', 'entropic-mcp', 'new-plugin', 'greeter'], project, env);
      sh('make', ['-C', 'greeter'], project, env);
      const transport = new StdioClientTransport({
        command: join(bin, 'entropic-mcp'),
        args: ['serve', '--plugin', join(project, 'greeter', 'build', 'libgreeter.so'), '--root', project],
        cwd: project,
        env: env as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'publish-check', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = await client.callTool({ name: 'greeter.hello', arguments: { name: 'registry' } });
        const content = result.content as { type: string; text?: string }[];
        expect(content[0]?.text).toBe('Hello, registry!');
      } finally {
        await client.close();
      }
    },
    5 * MINUTES,
  );
});
