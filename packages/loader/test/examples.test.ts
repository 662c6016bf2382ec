// Builds the example plugins and checks what each answers.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExamples, example } from '@entropic-mcp/test-kit/examples-build';
import { tempDir } from '@entropic-mcp/test-kit/temp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPlugin, type Plugin } from '../src/index.js';

beforeAll(() => buildExamples());

async function withPlugin(path: string, body: (p: Plugin) => Promise<void>, workingDir?: string) {
  const plugin = await loadPlugin(path, workingDir === undefined ? {} : { workingDir });
  try {
    await body(plugin);
  } finally {
    await plugin.close();
  }
}

describe('example plugins', () => {
  it('echo answers text and returns stop_processing and delegate directives', async () => {
    await withPlugin(example('echo'), async (p) => {
      expect(p.tools.map((t) => t.name)).toEqual(['echo', 'stop', 'delegate']);
      expect(await p.execute('echo', { text: 'a "b"\n' })).toEqual({ result: 'a "b"\n', directives: [] });
      expect((await p.execute('stop', { reason: 'done' })).directives).toEqual([{ type: 'stop_processing' }]);
      const delegated = await p.execute('delegate', { target: 'coder', task: 'fix it', max_turns: 3 });
      expect(delegated.directives).toEqual([{ type: 'delegate' }]);
      expect(JSON.parse(delegated.result)).toEqual({
        action: 'delegate',
        target: 'coder',
        task: 'fix it',
        max_turns: 3,
      });
    });
  });

  it('files reads and lists inside its working directory and refuses every way out', async () => {
    const root = tempDir('files-root');
    const outside = tempDir('files-outside');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'note.txt'), 'hello');
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(root, 'sub', 'note.txt'), join(root, 'inner-link'));
    await withPlugin(
      example('files'),
      async (p) => {
        expect((await p.execute('read', { path: 'sub/note.txt' })).result).toBe('hello');
        expect((await p.execute('read', { path: 'inner-link' })).result).toBe('hello');
        expect((await p.execute('list', {})).result.split('\n').sort()).toEqual([
          '',
          'escape',
          'inner-link',
          'sub/',
        ]);
        for (const path of ['../x', 'sub/../../x', join(outside, 'secret.txt'), 'escape/secret.txt']) {
          const { result } = await p.execute('read', { path });
          expect(result).toMatch(/^error: /);
          expect(result).not.toContain('secret\n');
        }
        expect((await p.execute('list', { path: 'escape' })).result).toContain(
          'outside the working directory',
        );
      },
      root,
    );
  });

  it('files refuses everything before it has a working directory', async () => {
    await withPlugin(example('files'), async (p) => {
      expect((await p.execute('list', {})).result).toContain('no working directory');
    });
  });

  it('cpp-hello exports the nine entry points from bare definitions under hidden visibility', async () => {
    const path = example('cpp-hello');
    const exported = execFileSync('nm', ['-D', '--defined-only', path], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => / T /.test(line))
      .map((line) => line.split(' ').pop())
      .sort();
    expect(exported).toHaveLength(9);
    expect(exported.every((name) => name?.startsWith('entropic_'))).toBe(true);
    const plugin = await loadPlugin(path, { config: { greeting: 'Hi' } });
    try {
      expect((await plugin.execute('greet', { name: 'Ada' })).result).toBe('Hi, Ada!');
      expect(JSON.parse((await plugin.execute('word_count', { text: 'one two  three' })).result)).toEqual({
        words: 3,
      });
    } finally {
      await plugin.close();
    }
  });
});
