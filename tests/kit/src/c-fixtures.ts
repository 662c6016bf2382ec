/**
 * The C test plugins of the workspace: the loader's fixtures (packages/loader/test/fixtures, compiled into its
 * build/ folder by `buildFixtures`, which the integration lanes' global setups run once), and compiling one fixture
 * source on its own, against the ABI headers, with extra defines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './serve-process.js';

/** The loader's fixture sources (plugins/, serve/, sandbox/, hosts/, …) and their Makefile. */
export const FIXTURE_SOURCES = join(REPO_ROOT, 'packages', 'loader', 'test', 'fixtures');
/** Where `buildFixtures` puts the compiled fixtures. */
export const fixturesDir = join(FIXTURE_SOURCES, 'build');
/** The ABI headers' include folder. */
export const INCLUDE_DIR = join(
  realpathSync(dirname(createRequire(import.meta.url).resolve('@entropic-mcp/abi-headers/package.json'))),
  'include',
);

/** Compiles every fixture (`make -C packages/loader/test/fixtures`); quick when nothing changed. */
export function buildFixtures(): void {
  execFileSync('make', ['-s', '-C', FIXTURE_SOURCES], { stdio: 'inherit' });
}

/** The compiled fixture `name` (`build/<name>.so`); throws when it is not built. */
export function fixture(name: string): string {
  const path = join(fixturesDir, `${name}.so`);
  if (!existsSync(path)) throw new Error(`fixture ${path} is not built; run make -C ${FIXTURE_SOURCES}`);
  return path;
}

/**
 * Compiles the C file `source` (absolute, or a path under the loader's fixtures) as plugin `name` into `out`;
 * returns `out`.
 */
export function compileFixture(source: string, name: string, out: string, flags: string[] = []): string {
  execFileSync('cc', [
    '-std=c11',
    '-D_DEFAULT_SOURCE',
    `-DPLUGIN_NAME="${name}"`,
    ...flags,
    '-fPIC',
    '-shared',
    `-I${INCLUDE_DIR}`,
    '-o',
    out,
    source.startsWith('/') ? source : join(FIXTURE_SOURCES, source),
  ]);
  return out;
}

/**
 * Compiles the sturdy fixture (serve/sturdy.c) as plugin `name` into `dir`; returns the absolute .so path.
 * `defines`: `BAD_SCHEMA` adds a tool whose inputSchema no JSON Schema validator accepts.
 */
export function buildFixture(
  dir: string,
  name = 'fx',
  file = `lib${name}.so`,
  defines: string[] = [],
): string {
  const flags = [...defines.map((d) => `-D${d}`), '-fvisibility=hidden'];
  return compileFixture(join('serve', 'sturdy.c'), name, join(dir, file), flags);
}

/** A file named like a plugin that is not one (not ELF): loading it must fail. */
export function notAPlugin(dir: string): string {
  const out = join(dir, 'libbroken.so');
  writeFileSync(out, 'this is not a shared library\n');
  return out;
}
