// Plugins with bare definitions and hidden visibility still export the nine entry points.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { abiHeadersRoot, entryPoints, readAbiModel } from '../src/index.js';
import { C_FLAGS, CXX_FLAGS, exportedSymbols, run, tempDir } from './support/cc.js';
import { CONTRACT_ENTRY_POINTS } from './support/contract-facts.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bare');
const include = join(abiHeadersRoot(), 'include');
const tmp = tempDir('entropic-exports');
afterAll(tmp.cleanup);

const CONTRACT_NAMES = CONTRACT_ENTRY_POINTS.map(([name]) => name);
const HIDDEN = ['-fvisibility=hidden', '-shared', '-fPIC'];

function build(source: string, includeDir: string, out: string, extra: string[] = []): string {
  const cpp = source.endsWith('.cpp');
  const lib = join(tmp.dir, out);
  run(cpp ? 'g++' : 'gcc', [
    ...(cpp ? CXX_FLAGS : C_FLAGS),
    ...HIDDEN,
    ...extra,
    '-I',
    includeDir,
    join(fixtures, source),
    '-o',
    lib,
  ]);
  return lib;
}

/** A copy of the include tree whose declarations lack the export attribute. */
function includeWithoutAttribute(): string {
  const copy = join(tmp.dir, 'include-no-attribute');
  cpSync(include, copy, { recursive: true });
  const header = join(copy, 'entropic', 'interfaces', 'i_mcp_server.h');
  const original = readFileSync(header, 'utf8');
  const stripped = original.replaceAll('ENTROPIC_EXPORT ', '');
  expect(stripped).not.toBe(original);
  writeFileSync(header, stripped);
  return copy;
}

it('the model lists the nine entry points in contract order', () => {
  expect(entryPoints(readAbiModel()).map((f) => f.name)).toEqual(CONTRACT_NAMES);
});

describe.each([
  ['C', 'bare-plugin.c'],
  ['C++', 'bare-plugin.cpp'],
])('a %s plugin with bare definitions built with -fvisibility=hidden', (_lang, source) => {
  it('exports all nine entry points and nothing it did not declare', () => {
    const symbols = exportedSymbols(build(source, include, `${source}.so`));
    for (const name of CONTRACT_NAMES) expect(symbols, name).toContain(name);
    expect(symbols.some((s) => s.includes('bare_plugin_helper'))).toBe(false);
  });

  it('control: against a header without the attribute it exports none of them', () => {
    const symbols = exportedSymbols(build(source, includeWithoutAttribute(), `${source}.control.so`));
    for (const name of CONTRACT_NAMES) expect(symbols, name).not.toContain(name);
  });

  it('with ENTROPIC_STATIC_BUILD defined the macro is empty, so nothing is exported', () => {
    const symbols = exportedSymbols(
      build(source, include, `${source}.static.so`, ['-DENTROPIC_STATIC_BUILD']),
    );
    for (const name of CONTRACT_NAMES) expect(symbols, name).not.toContain(name);
  });
});
