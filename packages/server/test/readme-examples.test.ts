/**
 * The documented examples, compiled as a consumer would: every ```js/```ts block of the root README, this
 * package's README and its guides (docs/server.md, docs/http.md, docs/testing.md) becomes a file of a project that imports the
 * built package, checked with
 * `tsc --strict --noEmit`. A block whose fence says `fragment` (```js fragment) is left out.
 */

import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerProject, runTsc, SERVER_ROOT } from './support/consumer-tsc.mjs';

const READMES = [
  join(SERVER_ROOT, '../../README.md'),
  join(SERVER_ROOT, 'README.md'),
  join(SERVER_ROOT, '../../docs/server.md'),
  join(SERVER_ROOT, '../../docs/http.md'),
  join(SERVER_ROOT, '../../docs/testing.md'),
];

function codeBlocks(file: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(js|ts|mjs)(\s.*)?$/.exec(lines[i] ?? '');
    if (!fence) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    if (!(fence[2] ?? '').includes('fragment'))
      blocks.push({ line: start, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

describe('README examples', () => {
  it('compile under tsc --strict against the built package', () => {
    const files: Record<string, string> = {};
    for (const readme of READMES) {
      const tag = readme.includes('packages/server') ? 'server-readme' : basename(readme, '.md');
      for (const block of codeBlocks(readme)) files[`${tag}-line-${block.line}.ts`] = block.code;
    }
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);
    expect(Object.values(files).some((code) => code.includes("name: 'add'"))).toBe(true);
    const dir = consumerProject(files);
    const result = runTsc(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(
      result.output,
      'documented examples fail tsc --strict (file names give the document and line)',
    ).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);
});
