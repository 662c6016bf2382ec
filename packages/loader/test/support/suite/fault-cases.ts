/**
 * The shared suite's cases about a plugin that crashes, hangs or allocates too much; each group runs only when
 * the mode has the capability.
 */

import { tempDir } from '@entropic-mcp/test-kit/temp';
import { describe, expect, it } from 'vitest';
import { callError, fixtureLoader, type SuiteOptions } from './helpers.js';

export function runFaultCases({ isolation, capabilities }: SuiteOptions): void {
  const { using } = fixtureLoader(isolation);

  describe.runIf(capabilities.crashes)(`crashes (${isolation})`, () => {
    it('turns a segfault into ENTROPIC_PLUGIN_CRASHED with the signal, then restarts and replays', async () => {
      const dir = tempDir('plugin-cwd');
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
    it('fails the call that crashed the host; those sent behind it run once on the next host', async () => {
      await using('crashy', async (p) => {
        // One burst: the host runs them in order, dies inside segv and never starts the ones behind it.
        const calls = [p.execute('sleep', { ms: 20 }), p.execute('segv', {}), p.execute('echo', { n: 1 })];
        const state = p.execute('state', {});
        const results = await Promise.allSettled(calls);
        expect(results[0]!.status).toBe('fulfilled');
        expect(results[1]!.status).toBe('rejected');
        const crash = (results[1] as PromiseRejectedResult).reason;
        expect(crash.code).toBe('ENTROPIC_PLUGIN_CRASHED');
        expect(crash.message).toMatch(/during execute of tool "segv"/);
        expect(results[2]).toMatchObject({
          status: 'fulfilled',
          value: { result: expect.stringContaining('"n":1') },
        });
        // The next host ran each of them exactly once: echo, then state.
        expect(JSON.parse((await state).result)).toMatchObject({ calls: 2 });
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
