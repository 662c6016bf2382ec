// A plugin shaped like the engine's own C++ test plugin (bare `extern "C"` entry points, only the public
// header, -fvisibility=hidden) still builds as C++11, 14, 17 and 20 with -Wall -Wextra -Werror -pedantic against
// the current headers, with and without the plugin context header included, exports the nine entry points
// and nothing else, and runs as a plain plugin in both hosting modes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_POINTS } from '@entropic-mcp/abi-headers';
import { afterAll, describe, expect, it } from 'vitest';
import { type Isolation, loadPlugin } from '../src/index.js';
import { INCLUDE_DIR, LOADER_ROOT } from './support/helpers.js';

const SOURCE = join(LOADER_ROOT, 'test', 'fixtures', 'upstream', 'upstream_plugin.cpp');
const out = mkdtempSync(join('/tmp', 'upstream-plugin-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function build(std: string, extraHeader: boolean): string {
  const lib = join(out, `upstream-${std}${extraHeader ? '-ctx' : ''}.so`);
  const flags = [
    `-std=${std}`,
    '-Wall',
    '-Wextra',
    '-Werror',
    '-pedantic',
    '-fvisibility=hidden',
    '-fPIC',
    '-shared',
  ];
  if (extraHeader) flags.push('-DUPSTREAM_EXTRA_HEADER=<entropic/interfaces/i_mcp_context.h>');
  execFileSync('g++', [...flags, `-I${INCLUDE_DIR}`, SOURCE, '-o', lib], { stdio: 'pipe' });
  return lib;
}

function exported(lib: string): string[] {
  const text = execFileSync('nm', ['-D', '--defined-only', lib], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[2] ?? '')
    .filter((name) => name.startsWith('entropic_'))
    .sort();
}

describe('a plugin shaped like the engine test plugin', () => {
  const built = new Map<string, string>();
  for (const std of ['c++11', 'c++14', 'c++17', 'c++20']) {
    for (const extra of [false, true]) {
      it(`builds as ${std} -Werror -pedantic${extra ? ' with the context header included' : ''}, exporting exactly the nine`, () => {
        const lib = build(std, extra);
        built.set(`${std}${extra}`, lib);
        expect(exported(lib)).toEqual([...ENTRY_POINTS].sort());
      });
    }
  }

  for (const isolation of ['process', 'none'] as Isolation[]) {
    it(`runs as a plain plugin (${isolation})`, async () => {
      const lib = built.get('c++20true') ?? build('c++20', true);
      const plugin = await loadPlugin(lib, { isolation, config: { a: 1 }, workingDir: '/tmp' });
      try {
        expect(plugin.usesContext).toBe(false);
        expect(plugin.name).toBe('upstream');
        expect(await plugin.execute('echo', { text: 'hi' })).toEqual({ result: 'echo: hi', directives: [] });
        expect((await plugin.execute('nope', {})).result).toBe('Error: unknown tool');
      } finally {
        await plugin.close();
      }
    });
  }
});
