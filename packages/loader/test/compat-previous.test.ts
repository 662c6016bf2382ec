// Plugins across versions, both ways. (1) The last release: the plugins of the last recorded release of
// @entropic-mcp/abi-headers (the newest abi/releases/<version>/ record; the commit that wrote it, found in git
// history, so a fresh clone without tags finds it too), compiled against that release's headers, load and run in
// the current loader in both hosting modes. (2) A plugin built with the plugin context loads in the loader as it
// was before the context existed, and runs there as a plain API-1 plugin, in both hosting modes. That loader is
// built by this test from git: the native host, the in-process addon (with node-gyp, from that commit's own
// binding.gyp) and the TypeScript of PREVIOUS_LOADER (main just before the plugin context), compiled into a
// temporary folder. Both need history: a shallow clone fails here, saying so.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Isolation, loadPlugin } from '../src/index.js';
import { LOADER_ROOT, REPO_ROOT } from './support/helpers.js';

/** The last commit of main before the plugin context (no i_mcp_context.h, no `F` request, no cancel pipe). */
const PREVIOUS_LOADER = '08f364441e9724f4a3a11e7462552819e5a26634';
const SLOW = join(REPO_ROOT, 'examples', 'plugins', 'slow', 'build', 'slow.so');

let root: string;
let previous: { host: string; addon: string; dist: string; pkg: string };

function exec(cmd: string, args: string[], cwd = root): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Refuses to go on, saying what to do, when the clone does not hold PREVIOUS_LOADER (a shallow clone). */
function requirePreviousCommit(): void {
  try {
    exec('git', ['-C', REPO_ROOT, 'cat-file', '-e', `${PREVIOUS_LOADER}^{commit}`]);
  } catch {
    throw new Error(
      `commit ${PREVIOUS_LOADER} (the loader before the plugin context, which this test builds) is not in ` +
        `the git history of ${REPO_ROOT}; a shallow clone lacks it: fetch the full history ` +
        '(`git fetch --unshallow`, or `fetch-depth: 0` with actions/checkout) and run again',
    );
  }
}

/**
 * The previous in-process addon, built with node-gyp from that commit's binding.gyp: its `entropic_loader`
 * target as it was (sources, defines, flags), with the paths its variables computed filled in.
 */
function buildPreviousAddon(): string {
  const dir = join(root, 'packages/loader');
  const gyp = JSON.parse(
    exec('git', ['-C', REPO_ROOT, 'show', `${PREVIOUS_LOADER}:packages/loader/binding.gyp`]),
  );
  const target = (gyp.targets as { target_name: string; include_dirs: string[] }[]).find(
    (t) => t.target_name === 'entropic_loader',
  );
  if (target === undefined) throw new Error(`no entropic_loader target in ${PREVIOUS_LOADER}'s binding.gyp`);
  const require = createRequire(join(LOADER_ROOT, 'package.json'));
  const paths: Record<string, string> = {
    '<(abi_include)': join(root, 'packages/abi-headers/include'),
    '<(abi_native)': join(root, 'packages/abi-headers/native'),
  };
  const addonApi = dirname(require.resolve('node-addon-api/package.json'));
  target.include_dirs = target.include_dirs.map((d) =>
    d.includes('node-addon-api') ? addonApi : (paths[d] ?? d),
  );
  writeFileSync(join(dir, 'binding.gyp'), JSON.stringify({ targets: [target] }, null, 2));
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
  const nodedir = resolve(process.execPath, '..', '..');
  exec(process.execPath, [nodeGyp, 'rebuild', `--nodedir=${nodedir}`, '--jobs=max', '--loglevel=warn'], dir);
  return join(dir, 'build', 'Release', 'entropic_loader.node');
}

/** Extracts the previous loader's sources from git and builds its host, its addon and its JavaScript. */
function buildPrevious(): { host: string; addon: string; dist: string; pkg: string } {
  requirePreviousCommit();
  const parts = [
    'packages/loader/native',
    'packages/loader/src',
    'packages/abi-headers/include',
    'packages/abi-headers/native',
  ];
  const tar = join(root, 'previous.tar');
  exec('git', ['-C', REPO_ROOT, 'archive', '-o', tar, PREVIOUS_LOADER, ...parts]);
  exec('tar', ['-xf', tar]);
  const native = join(root, 'packages/loader/native');
  const sources = ['host', 'wire'].flatMap((dir) =>
    readdirSync(join(native, dir))
      .filter((f) => f.endsWith('.c'))
      .map((f) => join(native, dir, f)),
  );
  const host = join(root, 'entropic_plugin_host');
  exec('gcc', [
    '-std=gnu11',
    '-O2',
    '-pthread',
    `-I${join(root, 'packages/abi-headers/include')}`,
    `-I${join(root, 'packages/abi-headers/native')}`,
    `-I${join(native, 'wire')}`,
    ...sources,
    '-ldl',
    '-lpthread',
    '-o',
    host,
  ]);
  // Emitted inside this package, so its imports resolve to the workspace's packages as the real one's did,
  // into a package folder of its own (its code reads its package.json from there). Its `load.js` is what is
  // loaded: its `index.js` also held serve then, whose dependencies (yaml, the OpenTelemetry SDK) are serve's now.
  const pkg = join(LOADER_ROOT, 'test', `.previous-loader-${process.pid}`);
  const dist = join(pkg, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{ "type": "module", "version": "0.0.0-previous" }\n');
  const src = join(root, 'packages/loader/src');
  writeFileSync(join(root, 'packages/loader/package.json'), '{ "type": "module" }\n'); // ES modules, as the package
  // File by file, types stripped, as tsc would emit them: its code, as all of ours, is written for that
  // (verbatimModuleSyntax, isolatedModules), so no file needs another to compile, and no type is checked.
  const ts = createRequire(join(REPO_ROOT, 'package.json'))('typescript') as typeof import('typescript');
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
  for (const file of files) {
    const { outputText } = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
      fileName: join(src, file),
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ES2022, // ES modules, as NodeNext emits them for a "type": "module" package
        verbatimModuleSyntax: true,
      },
      reportDiagnostics: false,
    });
    const out = join(dist, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  return { host, addon: buildPreviousAddon(), dist, pkg };
}

beforeAll(() => {
  root = mkdtempSync(join('/tmp', 'previous-loader-'));
  previous = buildPrevious();
}, 400_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  if (previous) rmSync(previous.pkg, { recursive: true, force: true });
});

describe('a plugin with the plugin context in the loader from before it', () => {
  it('that loader has no plugin context to offer: its host never looks for the optional entry point', () => {
    const strings = exec('strings', [previous.host]);
    expect(strings).toContain('entropic_mcp_server_execute');
    expect(strings).not.toContain('entropic_mcp_server_execute_with_context');
  });

  it('loads and counts as a plain API-1 plugin there, in silence', async () => {
    const { loadPlugin: loadPrevious } = (await import(join(previous.dist, 'load.js'))) as {
      loadPlugin: typeof loadPlugin;
    };
    const plugin = await loadPrevious(SLOW, { hostPath: previous.host });
    try {
      expect(plugin.name).toBe('slow');
      expect(plugin.apiVersion).toBe(1);
      expect(plugin.tools.map((t) => t.name)).toEqual(['count']);
      expect(await plugin.execute('count', { to: 3, delay_ms: 1 })).toEqual({ result: '3', directives: [] });
    } finally {
      await plugin.close();
    }
  });

  it('its in-process addon loads it too, as a plain API-1 plugin that counts in silence', async () => {
    expect(exec('strings', [previous.addon])).not.toContain('entropic_mcp_server_execute_with_context');
    const { loadPlugin: loadPrevious } = (await import(join(previous.dist, 'load.js'))) as {
      loadPlugin: typeof loadPlugin;
    };
    // That loader finds its addon through ENTROPIC_LOADER_ADDON, read once, on its first in-process load.
    process.env.ENTROPIC_LOADER_ADDON = previous.addon;
    let plugin: Awaited<ReturnType<typeof loadPlugin>>;
    try {
      plugin = await loadPrevious(SLOW, { isolation: 'none' });
    } finally {
      delete process.env.ENTROPIC_LOADER_ADDON;
    }
    try {
      expect(plugin.isolation).toBe('none');
      expect(plugin.apiVersion).toBe(1);
      expect(plugin.tools.map((t) => t.name)).toEqual(['count']);
      expect(await plugin.execute('count', { to: 3, delay_ms: 1 })).toEqual({ result: '3', directives: [] });
      const loaded = readFileSync('/proc/self/maps', 'utf8');
      expect(loaded).toContain(previous.addon);
    } finally {
      await plugin.close();
    }
  });

  it("today's loader on that host runs it without a context too; on its own host, with one", async () => {
    const old = await loadPlugin(SLOW, { hostPath: previous.host });
    const now = await loadPlugin(SLOW);
    try {
      expect(old.usesContext).toBe(false);
      expect(now.usesContext).toBe(true);
      let reports = 0;
      const voice = { progress: () => void reports++ };
      expect((await old.execute('count', { to: 2, delay_ms: 1 }, { voice })).structured).toBeUndefined();
      expect(reports).toBe(0);
      expect((await now.execute('count', { to: 2, delay_ms: 1 }, { voice })).structured).toEqual({
        count: 2,
        cancelled: false,
      });
      expect(reports).toBe(2);
    } finally {
      await old.close();
      await now.close();
    }
  });

  it("and a plain plugin of today's examples still loads there", async () => {
    const { loadPlugin: loadPrevious } = (await import(join(previous.dist, 'load.js'))) as {
      loadPlugin: typeof loadPlugin;
    };
    const plugin = await loadPrevious(fixture('crashy'), { hostPath: previous.host });
    try {
      expect((await plugin.execute('echo', { n: 1 })).result).toBe('{"n":1}');
    } finally {
      await plugin.close();
    }
  });
});

/** Where the release records of abi-headers live, from the repository root. */
const RECORDS = 'packages/abi-headers/abi/releases';

interface LastRelease {
  version: string;
  apiVersion: number;
  fingerprint: string;
  /** The commit that wrote the record (the release commit), or null when the record is not committed yet. */
  commit: string | null;
}

const semver = (v: string) => v.split('.').map(Number) as [number, number, number];
const bySemver = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The newest release record and the commit that added it (git history only: no tag is needed). */
function lastRelease(): LastRelease {
  const dir = join(REPO_ROOT, RECORDS);
  const version = readdirSync(dir)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(bySemver)
    .at(-1);
  if (version === undefined) throw new Error(`no release record in ${dir}`);
  const record = JSON.parse(readFileSync(join(dir, version, 'release.json'), 'utf8')) as LastRelease;
  const recordPath = `${RECORDS}/${version}/release.json`;
  const git = (...args: string[]) => exec('git', ['-C', REPO_ROOT, ...args]).trim();
  const commit = git('log', '-1', '--format=%H', '--diff-filter=A', '--', recordPath);
  if (commit === '' && git('rev-parse', '--is-shallow-repository') === 'true')
    throw new Error(
      `the commit that recorded ${recordPath} is not in the shallow history of ${REPO_ROOT}: fetch the full ` +
        'history (`git fetch --unshallow`, or `fetch-depth: 0` with actions/checkout) and run again',
    );
  return { version, apiVersion: record.apiVersion, fingerprint: record.fingerprint, commit: commit || null };
}

describe('plugins of the last release in the current loader', () => {
  let release: LastRelease;
  let dir: string;
  const plugins: Record<'echo' | 'slow', string> = { echo: '', slow: '' };

  beforeAll(() => {
    release = lastRelease();
    dir = mkdtempSync(join('/tmp', 'last-release-plugins-'));
    const parts = ['packages/abi-headers/include', 'packages/abi-headers/abi.lock.json', 'examples/plugins'];
    if (release.commit === null) {
      // A release not committed yet (`pnpm release --no-commit`): the work tree holds what it releases.
      for (const part of parts) exec('cp', ['-r', '--parents', part, dir], REPO_ROOT);
    } else {
      const tar = join(dir, 'release.tar');
      exec('git', ['-C', REPO_ROOT, 'archive', '-o', tar, release.commit, ...parts]);
      exec('tar', ['-xf', tar], dir);
    }
    const include = join(dir, 'packages/abi-headers/include');
    for (const name of Object.keys(plugins) as (keyof typeof plugins)[]) {
      const source = join(dir, 'examples/plugins', name, `${name}.c`);
      plugins[name] = join(dir, `${name}.so`);
      // The examples' own flags (their Makefiles), against the release's headers.
      exec('gcc', [
        '-std=c11',
        '-O2',
        '-D_DEFAULT_SOURCE',
        '-D_POSIX_C_SOURCE=200809L',
        '-fPIC',
        '-fvisibility=hidden',
        '-Wall',
        '-Wextra',
        `-I${include}`,
        '-shared',
        '-o',
        plugins[name],
        source,
      ]);
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('builds them against the headers the last release recorded', () => {
    const lock = JSON.parse(readFileSync(join(dir, 'packages/abi-headers/abi.lock.json'), 'utf8')) as {
      versions: Record<string, { fingerprint: string }>;
    };
    expect(lock.versions[String(release.apiVersion)]?.fingerprint).toBe(release.fingerprint);
    for (const so of Object.values(plugins)) expect(existsSync(so), so).toBe(true);
  });

  for (const isolation of ['process', 'none'] as Isolation[]) {
    it(`its echo plugin loads and answers (${isolation})`, async () => {
      const plugin = await loadPlugin(plugins.echo, { isolation });
      try {
        expect(plugin.apiVersion).toBe(release.apiVersion);
        expect(plugin.tools.map((t) => t.name)).toEqual(['echo', 'stop', 'delegate']);
        expect((await plugin.execute('echo', { text: 'from the last release' })).result).toContain(
          'from the last release',
        );
      } finally {
        await plugin.close();
      }
    });

    it(`its slow plugin reports progress through the plugin context (${isolation})`, async () => {
      const plugin = await loadPlugin(plugins.slow, { isolation });
      try {
        expect(plugin.usesContext).toBe(true);
        let reports = 0;
        const voice = { progress: () => void reports++ };
        const answer = await plugin.execute('count', { to: 2, delay_ms: 1 }, { voice });
        expect(answer.structured).toEqual({ count: 2, cancelled: false });
        expect(reports).toBe(2);
      } finally {
        await plugin.close();
      }
    });
  }
});
