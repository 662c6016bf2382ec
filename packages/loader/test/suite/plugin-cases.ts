/**
 * The contract cases every hosting mode must pass, written once. A mode runs them with
 * `runPluginSuite({ isolation, capabilities })`; cases that need a capability the mode lacks (surviving a
 * segfault needs a separate process) are skipped for it.
 */
import { chmodSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Isolation, type LoadOptions, loadPlugin, type Plugin, PluginError } from '../../src/index.js';
import { fixture } from '../fixtures.js';

export interface SuiteCapabilities {
  /** The mode survives a plugin that segfaults, aborts or exits, and restarts it. */
  readonly crashes: boolean;
  /** A hung call can be timed out or cancelled and the plugin used again. */
  readonly hangs: boolean;
  /** `memoryLimitMb` is enforced. */
  readonly memoryLimit: boolean;
}

export interface SuiteOptions {
  readonly isolation: Isolation;
  readonly capabilities: SuiteCapabilities;
}

export async function loadError(path: string, options: LoadOptions = {}): Promise<PluginError> {
  const error = await loadPlugin(path, options).then(
    (p) => {
      void p.close();
      throw new Error(`${path} loaded but should have been refused`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

export async function callError(promise: Promise<unknown>): Promise<PluginError> {
  const error = await promise.then(
    () => {
      throw new Error('the call succeeded but should have failed');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

export function runPluginSuite({ isolation, capabilities }: SuiteOptions): void {
  const quiet = isolation === 'process' ? { onStderr: () => {} } : {};
  const open = (name: string, options: LoadOptions = {}) =>
    loadPlugin(fixture(name), { isolation, ...quiet, ...options });
  const using = async (name: string, body: (p: Plugin) => Promise<void>, options: LoadOptions = {}) => {
    const plugin = await open(name, options);
    try {
      await body(plugin);
    } finally {
      await plugin.close();
    }
  };

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
      const dir = mkdtempSync(join(tmpdir(), 'plugin-dir-'));
      expect((await loadError(dir, { isolation })).code).toBe('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
    });
    // root reads any file whatever its mode, so this case only means something for another user
    it.skipIf(process.getuid?.() === 0)('refuses a file it cannot read', async () => {
      const copy = join(mkdtempSync(join(tmpdir(), 'plugin-unreadable-')), 'crashy.so');
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
      const dir = mkdtempSync(join(tmpdir(), 'plugin-cwd-'));
      await using(
        'crashy',
        async (p) => {
          const state = JSON.parse((await p.execute('state', {})).result);
          expect(state).toMatchObject({ config: { mode: 'fast' }, dir });
          const bad = await callError(p.configure({ reject: true }));
          expect(bad.code).toBe('ENTROPIC_ERROR_INVALID_CONFIG');
          expect(bad.errno).toBe(2);
          expect(bad.message).toContain('configure');
          const io = await callError(p.setWorkingDir('/tmp/missing-dir'));
          expect(io.code).toBe('ENTROPIC_ERROR_IO');
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
    it('carries 3 MB of arguments intact', async () => {
      await using('crashy', async (p) => {
        const text = 'é'.repeat(1024 * 1024) + 'end';
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

  describe.runIf(capabilities.crashes)(`crashes (${isolation})`, () => {
    it('turns a segfault into ENTROPIC_PLUGIN_CRASHED with the signal, then restarts and replays', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plugin-cwd-'));
      await using(
        'crashy',
        async (p) => {
          await p.execute('echo', {});
          const error = await callError(p.execute('segv', {}));
          expect(error.code).toBe('ENTROPIC_PLUGIN_CRASHED');
          expect(error.signal).toBe('SIGSEGV');
          expect(error.message).toContain('SIGSEGV');
          expect(error.message).toContain('"segv"');
          const state = JSON.parse((await p.execute('state', {})).result);
          expect(state).toEqual({ config: { n: 1 }, dir, calls: 1 });
        },
        { config: { n: 1 }, workingDir: dir },
      );
    });
    it('reports abort with SIGABRT and what the plugin wrote to stderr', async () => {
      await using('crashy', async (p) => {
        const error = await callError(p.execute('abort', {}));
        expect(error.signal).toBe('SIGABRT');
        expect(error.stderr).toContain('about to abort');
        expect((await p.execute('echo', { ok: 1 })).result).toBe('{"ok":1}');
      });
    });
    it('reports an exit with its status', async () => {
      await using('crashy', async (p) => {
        const error = await callError(p.execute('exit', {}));
        expect(error.code).toBe('ENTROPIC_PLUGIN_CRASHED');
        expect(error.exitCode).toBe(7);
      });
    });
    it('fails every call in flight when the host crashes', async () => {
      await using('crashy', async (p) => {
        const calls = [p.execute('sleep', { ms: 20 }), p.execute('segv', {}), p.execute('echo', {})];
        const results = await Promise.allSettled(calls);
        expect(results[0]!.status).toBe('fulfilled');
        for (const r of results.slice(1)) {
          expect(r.status).toBe('rejected');
          expect((r as PromiseRejectedResult).reason.code).toBe('ENTROPIC_PLUGIN_CRASHED');
        }
      });
    });
  });

  describe.runIf(capabilities.crashes)(`answers finished before a crash (${isolation})`, () => {
    for (const tool of ['segv', 'abort', 'exit']) {
      it(`are delivered although ${tool} follows them at once`, async () => {
        await using('crashy', async (p) => {
          const before = Array.from({ length: 20 }, (_, i) => p.execute('echo', { i }));
          const crash = p.execute(tool, {});
          const answers = await Promise.all(before);
          expect(answers.map((a) => JSON.parse(a.result).i)).toEqual([...Array(20).keys()]);
          expect((await callError(crash)).code).toBe('ENTROPIC_PLUGIN_CRASHED');
        });
      });
    }
  });

  describe.runIf(capabilities.hangs)(`hangs (${isolation})`, () => {
    it('delivers the answers finished before a call that hangs', async () => {
      await using('crashy', async (p) => {
        const echo = p.execute('echo', { first: true });
        const hung = p.execute('hang', {}, { timeoutMs: 3000 });
        const first = await Promise.race([
          echo,
          hung.then(
            () => 'hang answered',
            () => 'hang failed first',
          ),
        ]);
        expect(first).toEqual({ result: '{"first":true}', directives: [] });
        expect((await callError(hung)).code).toBe('ENTROPIC_ERROR_TIMEOUT');
      });
    });

    it('times out a hung call, then serves the next one', async () => {
      await using('crashy', async (p) => {
        const error = await callError(p.execute('hang', {}, { timeoutMs: 300 }));
        expect(error.code).toBe('ENTROPIC_ERROR_TIMEOUT');
        expect(error.errno).toBe(11);
        expect(error.message).toContain('300 ms');
        expect((await p.execute('echo', { after: 1 })).result).toBe('{"after":1}');
      });
    });
    it('uses the load-time timeout by default', async () => {
      await using(
        'crashy',
        async (p) => {
          expect((await callError(p.execute('hang', {}))).code).toBe('ENTROPIC_ERROR_TIMEOUT');
        },
        { timeoutMs: 1500 },
      );
    });
    it('cancels a hung call through its AbortSignal', async () => {
      await using('crashy', async (p) => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        const error = await callError(p.execute('hang', {}, { signal: controller.signal }));
        expect(error.code).toBe('ENTROPIC_ERROR_CANCELLED');
        expect(error.errno).toBe(12);
        expect((await p.execute('echo', {})).result).toBe('{}');
        const aborted = await callError(p.execute('echo', {}, { signal: AbortSignal.abort() }));
        expect(aborted.code).toBe('ENTROPIC_ERROR_CANCELLED');
      });
    });
    it('runs the calls queued behind a timed-out call exactly once', async () => {
      await using('crashy', async (p) => {
        const hung = p.execute('hang', {}, { timeoutMs: 300 });
        const queued = [p.execute('echo', { q: 1 }), p.execute('state', {})];
        expect((await callError(hung)).code).toBe('ENTROPIC_ERROR_TIMEOUT');
        const [echo, state] = await Promise.all(queued);
        expect(echo!.result).toBe('{"q":1}');
        expect(JSON.parse(state!.result).calls).toBe(2);
      });
    });
  });

  describe.runIf(capabilities.memoryLimit)(`memory limit (${isolation})`, () => {
    it('applies memoryLimitMb to the plugin', async () => {
      await using('crashy', async (p) =>
        expect((await p.execute('alloc', { mb: 256 })).result).toBe('allocated'),
      );
      await using(
        'crashy',
        async (p) => expect((await p.execute('alloc', { mb: 256 })).result).toBe('refused'),
        {
          memoryLimitMb: 128,
        },
      );
    });
  });
}
