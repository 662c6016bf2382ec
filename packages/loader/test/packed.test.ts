// The published shape: `pnpm pack` every package (the loader's prepack step makes its prebuilds), install the
// tarballs with plain npm and `--ignore-scripts` into an empty project outside the workspace, so nothing is
// compiled there; build a plugin whose Makefile finds the headers through abi-headers' own bin, serve it with the
// installed `entropic-mcp` in both hosting modes, and call it with the official SDK client. Also: the musl host,
// the advice for a platform without a prebuild, the install step's decision, and publint on every tarball.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, textOf } from './support/serve-helpers.js';

const PACKAGES = ['abi-headers', 'codegen', 'server', 'redis', 'loader'];
const MINUTES = 60_000;
const HAS_MUSL_GCC = spawnSync('musl-gcc', ['--version'], { stdio: 'ignore' }).status === 0;

let packs: string;
let project: string;
let env: NodeJS.ProcessEnv;
let plugin: string;
let installedLoader: string;
const tarballs: Record<string, string> = {};

function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, { cwd, env: runEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    );
  }
}

beforeAll(() => {
  packs = tempDir('packs');
  for (const name of PACKAGES) {
    run('pnpm', ['pack', '--pack-destination', packs], join(REPO_ROOT, 'packages', name));
    const file = readdirSync(packs).find((f) => f.startsWith(`entropic-mcp-${name}-`) && f.endsWith('.tgz'));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name} into ${packs}`);
    tarballs[name] = join(packs, file);
  }
  project = tempDir('packed-project');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'packed-check', private: true, type: 'module' }),
  );
  const tgz = PACKAGES.map((n) => tarballs[n]!);
  run(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', ...tgz],
    project,
  );
  installedLoader = join(project, 'node_modules', '@entropic-mcp', 'loader');
  env = { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}` };
  delete env.LIBC;
  run('npx', ['--no-install', 'entropic-mcp', 'new-plugin', 'packed'], project, env);
  const make = run('make', ['-C', 'packed'], project, env);
  // The Makefile asked abi-headers' bin for the include folder (the codegen CLI is not needed).
  expect(make).toContain(`-I"${join(project, 'node_modules', '@entropic-mcp', 'abi-headers', 'include')}"`);
  plugin = join(project, 'packed', 'build', 'libpacked.so');
}, 10 * MINUTES);

async function serveAndCall(isolation: string): Promise<{ text: string; stderr: string }> {
  const transport = new StdioClientTransport({
    command: join(project, 'node_modules', '.bin', 'entropic-mcp'),
    args: ['serve', '--plugin', plugin, '--root', project, '--isolation', isolation],
    cwd: project,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'packed-check', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['packed.hello']);
    const result = await client.callTool({ name: 'packed.hello', arguments: { name: isolation } });
    return { text: textOf(result), stderr };
  } finally {
    await client.close();
  }
}

describe('packed tarballs', () => {
  it('have no workspace: ranges left', () => {
    for (const name of PACKAGES) {
      const manifest = run('tar', ['xzf', tarballs[name]!, '-O', 'package/package.json'], packs);
      expect(manifest, name).not.toContain('workspace:');
    }
  });

  it('are publint clean (strict)', () => {
    const publint = join(REPO_ROOT, 'node_modules', '.bin', 'publint');
    for (const name of PACKAGES) {
      const out = run(publint, ['run', tarballs[name]!, '--strict'], REPO_ROOT);
      expect(out, name).not.toMatch(/warning|error|suggestion/i);
    }
  });

  it('ship the loader prebuilds for linux-x64: the glibc addon and the glibc and musl hosts', () => {
    const listing = run('tar', ['tzf', tarballs.loader!], packs).split('\n');
    const prebuilds = listing.filter((f) => f.startsWith('package/prebuilds/')).sort();
    expect(prebuilds).toEqual([
      'package/prebuilds/linux-x64/@entropic-mcp+loader.glibc.node',
      'package/prebuilds/linux-x64/entropic_plugin_host.glibc',
      ...(HAS_MUSL_GCC ? ['package/prebuilds/linux-x64/entropic_plugin_host.musl'] : []),
    ]);
  });
});

describe('installed with --ignore-scripts', () => {
  it('compiled nothing', () => {
    expect(existsSync(join(installedLoader, 'build'))).toBe(false);
  });

  it.each([
    ['process', 'isolated'],
    ['none', 'in-process'],
  ])(
    'serves the plugin from the prebuilds with isolation %s and answers the SDK client',
    async (isolation, banner) => {
      const { text, stderr } = await serveAndCall(isolation);
      expect(text).toBe(`Hello, ${isolation}!`);
      expect(stderr).toMatch(new RegExp(`packed\\s+1 tools?\\s+${banner}`));
    },
    5 * MINUTES,
  );

  it.skipIf(!HAS_MUSL_GCC)('runs a musl-built plugin in the musl host when LIBC=musl', () => {
    const so = join(project, 'libpacked-musl.so');
    const include = run(
      'npx',
      ['--no-install', 'entropic-abi-headers', '--include-dir'],
      project,
      env,
    ).trim();
    const source = join(project, 'packed', 'src', 'plugin.c');
    run(
      'musl-gcc',
      ['-std=c11', '-fPIC', '-fvisibility=hidden', `-I${include}`, '-shared', '-o', so, source],
      project,
    );
    const call = ['--no-install', 'entropic-mcp', 'call', so, 'hello', '{"name":"musl"}'];
    // The glibc host cannot load a musl library, so an answer proves the musl host ran it.
    const glibc = spawnSync('npx', call, { cwd: project, env, encoding: 'utf8' });
    expect(glibc.status).not.toBe(0);
    const answer = JSON.parse(run('npx', call, project, { ...env, LIBC: 'musl' })) as { result: string };
    expect(answer.result).toBe('Hello, musl!');
  });

  it('tells a consumer on a platform without a prebuilt addon what to run in their project', () => {
    const r = spawnSync(
      'npx',
      ['--no-install', 'entropic-mcp', 'call', plugin, 'hello', '{}', '--isolation', 'none'],
      { cwd: project, env: { ...env, LIBC: 'musl' }, encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ships no prebuilt binary for linux-x64 (musl)');
    expect(r.stderr).toContain('npm rebuild @entropic-mcp/loader');
    expect(r.stderr).not.toContain('pnpm --filter');
  });

  it('install step: silent with a matching prebuild, compiles with progress without one', () => {
    const script = join(installedLoader, 'scripts', 'install-native.mjs');
    const matched = spawnSync(process.execPath, [script], { cwd: installedLoader, env, encoding: 'utf8' });
    expect(matched.status).toBe(0);
    expect(matched.stderr + matched.stdout).toBe('');
    expect(existsSync(join(installedLoader, 'build'))).toBe(false);
    // No musl addon ships: the step runs node-gyp (here with a compiler that fails at once, to stay fast) and
    // says why and what it does; a failed compile does not fail the install.
    const unmatched = spawnSync(process.execPath, [script], {
      cwd: installedLoader,
      env: { ...env, LIBC: 'musl', CC: 'false', CXX: 'false' },
      encoding: 'utf8',
    });
    expect(unmatched.status).toBe(0);
    expect(unmatched.stderr).toContain('no prebuilt in-process addon for linux-x64 (musl); compiling');
    expect(unmatched.stderr).toContain('compiling the native parts failed');
    expect(existsSync(join(installedLoader, 'build', 'Makefile'))).toBe(true);
  });
});
