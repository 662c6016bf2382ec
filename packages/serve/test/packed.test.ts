// The published shape: `pnpm pack` every package (the loader's prepack step makes its prebuilds), install the
// tarballs with plain npm and `--ignore-scripts` into an empty project outside the workspace, so nothing is
// compiled there; build a plugin whose Makefile finds the headers through abi-headers' own bin, serve it with the
// installed `entropic-mcp` in both hosting modes, and call it with the official SDK client. Also: the musl host,
// the advice for a platform without a prebuild and `entropic-mcp build-native`, publint on every tarball, and a
// plain npm install (scripts on) of serve and the loader without @entropic-mcp/redis: no install-script warning, no
// ioredis; and the loader installed alone: no bin, no OpenTelemetry SDK, no yaml.
// npm installs with --prefer-offline (the tarballs are the subject, not the registry: a dependency npm has cached is
// not asked for again). The loader-alone project is the plain one's first step: npm installs abi-headers, server and
// the loader there, those tests run, then npm adds serve to the same project for the plain tests (vitest runs the
// blocks of a file in order). The installed bins are run by path; `npx` (about 0.7 s more CPU a start) runs the
// two commands a user is told to type: `npx entropic-mcp new-plugin` and `npx entropic-mcp build-native`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, textOf } from './support/serve-helpers.js';

const PACKAGES = ['abi-headers', 'codegen', 'server', 'redis', 'loader', 'serve'];
const MINUTES = 60_000;
const HAS_MUSL_GCC = spawnSync('musl-gcc', ['--version'], { stdio: 'ignore' }).status === 0;
/** The flags of every npm install here; npm still fetches what its cache lacks. */
const NPM_INSTALL = ['--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'];

let packs: string;
let project: string;
let env: NodeJS.ProcessEnv;
let plugin: string;
let installedLoader: string;
/**
 * A project where npm installed the loader (with abi-headers and server) and not serve, scripts on: a loadPlugin
 * user. The plain tests then add serve to it.
 */
let library: string;
/** What npm printed installing the library project (and then, for the plain tests, serve into it). */
let plainInstall: string;
const tarballs: Record<string, string> = {};

/**
 * Runs a command to its end. A command still running after five minutes is killed and fails the step
 * with what it printed (an npm that stalls waiting on the registry must not hold the test run for hours);
 * an npm install killed that way is tried once more, since a stall there comes from the network.
 */
function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = process.env): string {
  const attempts = cmd === 'npm' && args[0] === 'install' ? 2 : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync(cmd, args, {
        cwd,
        env: runEnv,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 5 * MINUTES,
        killSignal: 'SIGKILL',
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string; signal?: string };
      if (e.signal === 'SIGKILL' && attempt < attempts) continue;
      const stalled = e.signal === 'SIGKILL' ? ' (still running after 5 minutes: killed)' : '';
      throw new Error(
        `${cmd} ${args.join(' ')} (in ${cwd}) failed${stalled}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
      );
    }
  }
}

/** The bin `name` npm linked into `dir`'s node_modules/.bin. */
function binOf(dir: string, name: string): string {
  return join(dir, 'node_modules', '.bin', name);
}

/**
 * `npm install` with scripts on: what npm printed, failing with it when npm fails. Like `run`, an install still
 * running after five minutes is killed and tried once more.
 */
function npmInstall(cwd: string, tgz: string[]): string {
  for (let attempt = 1; ; attempt++) {
    const installed = spawnSync('npm', ['install', ...NPM_INSTALL, ...tgz], {
      cwd,
      encoding: 'utf8',
      timeout: 5 * MINUTES,
      killSignal: 'SIGKILL',
    });
    if (installed.signal === 'SIGKILL' && attempt < 2) continue;
    const printed = `${installed.stdout}${installed.stderr}`;
    expect(installed.status, printed).toBe(0);
    return printed;
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
  run('npm', ['install', '--ignore-scripts', ...NPM_INSTALL, ...tgz], project);
  installedLoader = join(project, 'node_modules', '@entropic-mcp', 'loader');
  env = { ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}` };
  delete env.LIBC;
  run('npx', ['--no-install', 'entropic-mcp', 'new-plugin', 'packed'], project, env);
  const make = run('make', ['-C', 'packed'], project, env);
  // The Makefile asked abi-headers' bin for the include folder (the codegen CLI is not needed).
  expect(make).toContain(`-I"${join(project, 'node_modules', '@entropic-mcp', 'abi-headers', 'include')}"`);
  plugin = join(project, 'packed', 'build', 'libpacked.so');

  library = tempDir('packed-library');
  writeFileSync(
    join(library, 'package.json'),
    JSON.stringify({ name: 'library', private: true, type: 'module' }),
  );
  plainInstall = npmInstall(
    library,
    ['abi-headers', 'server', 'loader'].map((n) => tarballs[n]!),
  );
}, 25 * MINUTES);

afterAll(() => {
  for (const dir of [packs, project, library])
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

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
    expect(tools.map((t) => t.name)).toEqual(['packed.countdown', 'packed.hello']);
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

  it('ship the sources every source map and declaration map points at', () => {
    for (const name of PACKAGES) {
      const dir = tempDir(`unpacked-${name}`);
      run('tar', ['xzf', tarballs[name]!, '-C', dir], packs);
      const root = join(dir, 'package');
      const maps = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.map'));
      expect(maps.length, name).toBeGreaterThan(0);
      const missing: string[] = [];
      for (const map of maps) {
        const { sources } = JSON.parse(readFileSync(join(root, map), 'utf8')) as { sources: string[] };
        for (const source of sources) {
          const target = join(root, dirname(map), source);
          if (!existsSync(target)) missing.push(`${map} -> ${source}`);
        }
      }
      expect(missing, name).toEqual([]);
      const listing = readdirSync(join(root), { recursive: true, encoding: 'utf8' });
      expect(
        listing.filter((f) => /\.test\.[cm]?[jt]s$/.test(f)),
        name,
      ).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are publint clean (strict)', async () => {
    // publint's own API on each tarball, as its CLI does with `publint run FILE.tgz --strict`, in this process.
    for (const name of PACKAGES) {
      const file = readFileSync(tarballs[name]!);
      const tarball = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
      const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
      const said = messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
      expect(said, name).toEqual([]);
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
      expect(stderr).toMatch(new RegExp(`packed\\s+2 tools\\s+${banner}`));
    },
    5 * MINUTES,
  );

  it.skipIf(!HAS_MUSL_GCC)('runs a musl-built plugin in the musl host when LIBC=musl', () => {
    const so = join(project, 'libpacked-musl.so');
    const include = run(binOf(project, 'entropic-abi-headers'), ['--include-dir'], project, env).trim();
    const source = join(project, 'packed', 'src', 'plugin.c');
    run(
      'musl-gcc',
      ['-std=c11', '-fPIC', '-fvisibility=hidden', `-I${include}`, '-shared', '-o', so, source],
      project,
    );
    const cli = binOf(project, 'entropic-mcp');
    const call = ['call', so, 'hello', '{"name":"musl"}'];
    // The glibc host cannot load a musl library, so an answer proves the musl host ran it.
    const glibc = spawnSync(cli, call, { cwd: project, env, encoding: 'utf8' });
    expect(glibc.status).not.toBe(0);
    const answer = JSON.parse(run(cli, call, project, { ...env, LIBC: 'musl' })) as { result: string };
    expect(answer.result).toBe('Hello, musl!');
  });

  it('tells a consumer on a platform without a prebuilt addon what to run in their project', () => {
    const r = spawnSync(
      binOf(project, 'entropic-mcp'),
      ['call', plugin, 'hello', '{}', '--isolation', 'none'],
      { cwd: project, env: { ...env, LIBC: 'musl' }, encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ships no prebuilt binary for linux-x64 (musl)');
    expect(r.stderr).toContain('npx entropic-mcp build-native');
    expect(r.stderr).not.toContain('pnpm --filter');
  });

  it('has no install script, so npm never runs one', () => {
    const manifest = JSON.parse(
      run('tar', ['xzf', tarballs.loader!, '-O', 'package/package.json'], packs),
    ) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {}).filter((k) => /install/.test(k))).toEqual([]);
    // A binding.gyp at the root would make npm and pnpm run `node-gyp rebuild`; build-native's copy is in native/.
    const listing = run('tar', ['tzf', tarballs.loader!], packs).split('\n');
    expect(listing).not.toContain('package/binding.gyp');
    expect(listing).toContain('package/native/binding.gyp');
  });
});

describe('the loader installed without serve', () => {
  it('brings no bin, no OpenTelemetry SDK or exporter and no yaml, and loads and calls a plugin', async () => {
    expect(existsSync(join(library, 'node_modules', '.bin', 'entropic-mcp'))).toBe(false);
    const modules = join(library, 'node_modules');
    const otel = existsSync(join(modules, '@opentelemetry'))
      ? readdirSync(join(modules, '@opentelemetry'))
      : [];
    expect(otel).toEqual(['api']);
    expect(existsSync(join(modules, 'yaml'))).toBe(false);
    const script = `import { loadPlugin } from '@entropic-mcp/loader';
const p = await loadPlugin(${JSON.stringify(plugin)});
console.log((await p.execute('hello', { name: 'library' })).result);
await p.close();`;
    expect(run(process.execPath, ['--input-type=module', '-e', script], library).trim()).toBe(
      'Hello, library!',
    );
  });
});

describe('installed with plain npm (scripts on), without @entropic-mcp/redis', () => {
  /** The library project with serve added: abi-headers, server, loader and serve, no Redis package. */
  let plain: string;

  beforeAll(() => {
    plain = library;
    plainInstall += npmInstall(plain, [tarballs.serve!]);
  }, 10 * MINUTES);

  it('prints no install-script warning and compiles nothing', () => {
    expect(plainInstall).not.toMatch(/install-scripts|allowScripts|install script/i);
    expect(existsSync(join(plain, 'node_modules', '@entropic-mcp', 'loader', 'build'))).toBe(false);
  });

  it('installs neither ioredis nor @entropic-mcp/redis, and serves a plugin from the prebuild', () => {
    expect(existsSync(join(plain, 'node_modules', 'ioredis'))).toBe(false);
    expect(existsSync(join(plain, 'node_modules', '@entropic-mcp', 'redis'))).toBe(false);
    const answer = JSON.parse(
      run(binOf(plain, 'entropic-mcp'), ['call', plugin, 'hello', '{"name":"plain"}'], plain),
    ) as { result: string };
    expect(answer.result).toBe('Hello, plain!');
  });

  it('serve --redis says which package to install', () => {
    const r = spawnSync(
      binOf(plain, 'entropic-mcp'),
      ['serve', '--plugin', plugin, '--http', '127.0.0.1:0', '--redis', 'redis://127.0.0.1:9'],
      { cwd: plain, encoding: 'utf8', timeout: MINUTES },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--redis (or mcp.redis) needs the package @entropic-mcp/redis');
    expect(r.stderr).toContain('npm install @entropic-mcp/redis');
  });

  it(
    'build-native compiles what a platform lacks, explicitly, and the in-process mode then runs',
    () => {
      const musl = { ...process.env, LIBC: 'musl' };
      const cli = binOf(plain, 'entropic-mcp');
      const call = ['call', plugin, 'hello', '{"name":"built"}', '--isolation', 'none'];
      const before = spawnSync(cli, call, { cwd: plain, env: musl, encoding: 'utf8' });
      expect(before.status).not.toBe(0);
      expect(before.stderr).toContain('npx entropic-mcp build-native');
      // The command the advice names, as typed.
      const build = spawnSync('npx', ['--no-install', 'entropic-mcp', 'build-native'], {
        cwd: plain,
        env: musl,
        encoding: 'utf8',
        timeout: 5 * MINUTES,
      });
      expect(build.status, build.stderr).toBe(0);
      expect(build.stderr).toMatch(/compiled both parts in [\d.]+ s/);
      const after = JSON.parse(run(cli, call, plain, musl)) as { result: string };
      expect(after.result).toBe('Hello, built!');
    },
    6 * MINUTES,
  );
});
