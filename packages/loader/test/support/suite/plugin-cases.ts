/**
 * The contract cases every hosting mode must pass, written once. A mode runs them with
 * `runPluginSuite({ isolation, capabilities })`; cases that need a capability the mode lacks (surviving a
 * segfault needs a separate process) are skipped for it.
 */

import { chmodSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { tempDir } from '@entropic-mcp/test-kit/temp';
import { describe, expect, it } from 'vitest';
import { type Isolation, loadPlugin } from '../../../src/index.js';
import { runFaultCases } from './fault-cases.js';
import { callError, fixtureLoader, loadError, type SuiteOptions } from './helpers.js';

export { callError, loadError, type SuiteCapabilities, type SuiteOptions } from './helpers.js';

export function runPluginSuite({ isolation, capabilities }: SuiteOptions): void {
  const { open, using } = fixtureLoader(isolation);

  describe(`arguments are checked before native code (${isolation})`, () => {
    it('rejects a relative path with a TypeError', async () => {
      await expect(loadPlugin('fixtures/build/crashy.so', { isolation })).rejects.toThrow(TypeError);
      await expect(loadPlugin('fixtures/build/crashy.so', { isolation })).rejects.toThrow(/absolute/);
    });
    it('rejects wrong option types with TypeErrors naming the option', async () => {
      const path = fixture('crashy');
      await expect(loadPlugin(path, { isolation: 'thread' as Isolation })).rejects.toThrow(
        /options.isolation/,
      );
      await expect(loadPlugin(path, { isolation, timeoutMs: -1 })).rejects.toThrow(/options.timeoutMs/);
      await expect(loadPlugin(path, { isolation, config: () => 1 })).rejects.toThrow(/options.config/);
      await expect(loadPlugin(42 as unknown as string)).rejects.toThrow(TypeError);
    });
    it('rejects bad call arguments with TypeErrors', async () => {
      await using('crashy', async (p) => {
        await expect(p.execute('', {})).rejects.toThrow(/tool name/);
        await expect(p.execute('echo', [1, 2])).rejects.toThrow(TypeError);
        await expect(p.execute('echo', 'not json')).rejects.toThrow(/JSON/);
        await expect(p.execute('echo', {}, { timeoutMs: Number.NaN })).rejects.toThrow(/timeoutMs/);
      });
    });
  });

  describe(`load-time contract checks (${isolation})`, () => {
    it('names every missing entry point', async () => {
      const error = await loadError(fixture('missing-symbols'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.errno).toBe(10);
      expect(error.value).toBe(10);
      expect(error.path).toBe(fixture('missing-symbols'));
      for (const name of [
        'entropic_mcp_server_list_tools',
        'entropic_mcp_server_execute',
        'entropic_mcp_server_configure',
        'entropic_mcp_server_destroy',
      ]) {
        expect(error.message).toContain(name);
      }
      expect(error.message).not.toContain('entropic_free');
    });
    it('names a single missing entropic_free', async () => {
      const error = await loadError(fixture('missing-free'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toContain('entropic_free');
    });
    it("refuses a plugin that calls the engine's entropic_error_name, naming the symbol", async () => {
      const error = await loadError(fixture('engine-call'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toContain('undefined symbol: entropic_error_name');
    });
    it('refuses another API version, naming both and asking for a rebuild', async () => {
      const error = await loadError(fixture('wrong-version'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH');
      expect(error.errno).toBe(9);
      expect(error.message).toMatch(/\b2\b/);
      expect(error.message).toMatch(/\b1\b/);
      expect(error.message).toMatch(/rebuild/i);
    });
    it('refuses a file that is not ELF', async () => {
      const error = await loadError(fixture('not-elf'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toContain('not-elf.so');
    });
    it('refuses a missing file and a directory', async () => {
      const missing = join(tmpdir(), 'no-such-plugin-here.so');
      const gone = await loadError(missing, { isolation });
      expect(gone.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(gone.message).toContain(missing);
      const dir = tempDir('plugin-dir');
      expect((await loadError(dir, { isolation })).code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
    });
    // root reads any file whatever its mode, so this case only means something for another user
    it.skipIf(process.getuid?.() === 0)('refuses a file it cannot read', async () => {
      const copy = join(tempDir('plugin-unreadable'), 'crashy.so');
      copyFileSync(fixture('crashy'), copy);
      chmodSync(copy, 0o000);
      const error = await loadError(copy, { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toContain(copy);
    });
    it('refuses NULL from entropic_create_server', async () => {
      const error = await loadError(fixture('null-create'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toContain('entropic_create_server');
      expect(error.message).toContain('NULL');
    });
    it('refuses an empty name', async () => {
      const error = await loadError(fixture('empty-name'), { isolation });
      expect(error.code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
      expect(error.message).toMatch(/empty/);
    });
    it('refuses a tool list with a broken descriptor, naming the plugin and the tool', async () => {
      const error = await loadError(fixture('bad-list'), { isolation });
      expect(error.code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
      expect(error.message).toContain('"bad-list"');
      expect(error.message).toContain('"broken"');
      expect(error.message).toContain('inputSchema');
    });
  });

  describe(`calls (${isolation})`, () => {
    it('reads name, version and tools, and echoes arguments', async () => {
      await using('crashy', async (p) => {
        expect(p.name).toBe('crashy');
        expect(p.apiVersion).toBe(1);
        expect(p.isolation).toBe(isolation);
        expect(p.tools.map((t) => t.name)).toContain('echo');
        expect(p.tools.find((t) => t.name === 'sleep')?.description).toBe('sleeps ms');
        expect(await p.listTools()).toEqual(p.tools);
        const answer = await p.execute('echo', { text: 'héllo "quoted"' });
        expect(JSON.parse(answer.result)).toEqual({ text: 'héllo "quoted"' });
        expect(answer.directives).toEqual([]);
      });
    });
    it('passes configure and set_working_dir through, and turns their codes into errors', async () => {
      const dir = tempDir('plugin-cwd');
      await using(
        'crashy',
        async (p) => {
          const state = JSON.parse((await p.execute('state', {})).result);
          expect(state).toMatchObject({ config: { mode: 'fast' }, dir });
          const bad = await callError(p.configure({ reject: true }));
          expect(bad.code).toBe('ENTROPIC_ERROR_INVALID_CONFIG');
          expect(bad.errno).toBe(2);
          expect(bad.message).toMatch(
            /^plugin "crashy" \(.*crashy\.so\): entropic_mcp_server_configure\(\) returned ENTROPIC_ERROR_INVALID_CONFIG \(2\)$/,
          );
          const io = await callError(p.setWorkingDir('/tmp/missing-dir'));
          expect(io.code).toBe('ENTROPIC_ERROR_IO');
          expect(io.message).toContain('entropic_mcp_server_set_working_dir() returned ENTROPIC_ERROR_IO');
        },
        { config: { mode: 'fast' }, workingDir: dir },
      );
    });
    it('answers many calls in flight, each with its own answer', async () => {
      await using('crashy', async (p) => {
        const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => p.execute('echo', { i })));
        expect(answers.map((a) => JSON.parse(a.result))).toEqual(answers.map((_, i) => ({ i })));
      });
    });
    it('serves slow calls one at a time, in order', async () => {
      await using('crashy', async (p) => {
        const order: number[] = [];
        const start = Date.now();
        await Promise.all([0, 1, 2].map((i) => p.execute('sleep', { ms: 60 }).then(() => order.push(i))));
        expect(order).toEqual([0, 1, 2]);
        expect(Date.now() - start).toBeGreaterThanOrEqual(170);
      });
    });
    it('carries a 5 MB answer intact', async () => {
      await using('bad-answers', async (p) => {
        const answer = await p.execute('huge', {});
        expect(answer.result.length).toBe(5 * 1024 * 1024);
        expect(answer.result.replaceAll('x', '')).toBe('');
      });
    });
    it('refuses an answer over maxAnswerBytes, naming its size and the option, and goes on', async () => {
      await using(
        'bad-answers',
        async (p) => {
          const error = await callError(p.execute('huge', {}));
          expect(error.code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
          expect(error.tool).toBe('huge');
          expect(error.message).toMatch(
            /"huge" answered \d+ bytes, more than the 1048576 allowed \(maxAnswerBytes\)/,
          );
          expect(JSON.parse((await p.execute('echo', { after: 'huge' })).result)).toEqual({ after: 'huge' });
        },
        { maxAnswerBytes: 1024 * 1024 },
      );
      await expect(loadPlugin(fixture('crashy'), { isolation, maxAnswerBytes: -1 })).rejects.toThrow(
        /options.maxAnswerBytes/,
      );
    });
    it('carries 3 MB of arguments intact', async () => {
      await using('crashy', async (p) => {
        const text = `${'é'.repeat(1024 * 1024)}end`;
        const answer = await p.execute('echo', { text });
        expect(JSON.parse(answer.result).text).toBe(text);
      });
    });
    it('keeps the answers intact when the plugin writes to stdout', async () => {
      await using('noisy', async (p) => {
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => p.execute('echo', { i })));
        expect(answers.map((a) => JSON.parse(a.result))).toEqual(answers.map((_, i) => ({ i })));
      });
    });
    it("releases every string with the plugin's own entropic_free", async () => {
      await using('own-free', async (p) => {
        for (let i = 0; i < 20; i++) await p.execute('stats', {});
        const stats = JSON.parse((await p.execute('stats', {})).result);
        // list_tools at load + 21 answers were allocated before this one; every earlier one was released
        expect(stats.bad_frees).toBe(0);
        expect(stats.allocated).toBeGreaterThanOrEqual(21);
        expect(stats.freed).toBe(stats.allocated);
      });
    });
    it('accepts a known directive', async () => {
      await using('bad-answers', async (p) => {
        const answer = await p.execute('directive', {});
        expect(answer).toEqual({ result: 'stopping', directives: [{ type: 'stop_processing' }] });
      });
    });
  });

  describe(`bad answers name the plugin and the fault (${isolation})`, () => {
    const cases: [string, RegExp][] = [
      ['null', /returned NULL/],
      ['invalid_json', /not valid JSON/],
      ['non_object', /returned an array, expected a JSON object/],
      ['missing_result', /has no "result"/],
      ['number_result', /"result" that is a number/],
      ['directives_object', /"directives" that is an object, expected an array/],
      ['unknown_directive', /unknown type "explode"/],
    ];
    for (const [tool, fault] of cases) {
      it(`rejects ${tool}`, async () => {
        await using('bad-answers', async (p) => {
          const error = await callError(p.execute(tool, {}));
          expect(error.code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
          expect(error.message).toContain('"bad-answers"');
          expect(error.message).toContain(`"${tool}"`);
          expect(error.message).toMatch(fault);
          expect(error.tool).toBe(tool);
          expect(JSON.parse((await p.execute('echo', { after: tool })).result)).toEqual({ after: tool });
        });
      });
    }
  });

  describe(`close (${isolation})`, () => {
    it('destroys after every earlier call, then refuses calls', async () => {
      const p = await open('crashy');
      const earlier = [p.execute('sleep', { ms: 50 }), p.execute('echo', { last: true })];
      const closed = p.close();
      const answers = await Promise.all(earlier);
      expect(JSON.parse(answers[1]!.result)).toEqual({ last: true });
      await closed;
      await p.close();
      const error = await callError(p.execute('echo', {}));
      expect(error.code).toBe('ENTROPIC_PLUGIN_CLOSED');
      expect(error.message).toContain('closed');
    });
  });

  runFaultCases({ isolation, capabilities });
}
