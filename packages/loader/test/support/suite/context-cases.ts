/**
 * The plugin context (`<entropic/interfaces/i_mcp_context.h>`) in one hosting mode, written once for both: a
 * plugin that defines `entropic_mcp_server_execute_with_context` reports progress and logs while it runs,
 * attaches a structured result, reads the caller, and returns early when the call is cancelled or times out,
 * its instance going on (in the isolated mode: the same host process).
 */
import { describe, expect, it } from 'vitest';
import type { CallVoice, Isolation, Plugin } from '../../../src/index.js';
import { callError, fixtureLoader } from './helpers.js';

type Heard = { progress: [number, number | undefined, string | undefined][]; logs: unknown[][] };

function listener(): { voice: CallVoice; heard: Heard } {
  const heard: Heard = { progress: [], logs: [] };
  return {
    heard,
    voice: {
      progress: (done, total, message) => heard.progress.push([done, total, message]),
      log: (level, data, logger) => heard.logs.push([level, data, logger]),
    },
  };
}

/** The instance's process id and how many calls it served (the `pid` tool). */
async function pidOf(p: Plugin): Promise<{ pid: number; calls: number }> {
  const [pid, calls] = (await p.execute('pid', {})).result.split(' ').map(Number);
  return { pid: pid as number, calls: calls as number };
}

export function runContextCases(isolation: Isolation): void {
  const { open, using } = fixtureLoader(isolation);

  describe(`plugin context (${isolation})`, () => {
    it('knows which plugins have it: a context plugin gets one of its full size, a plain plugin none', async () => {
      await using('voice', async (p) => {
        expect(p.usesContext).toBe(true);
        expect(Number((await p.execute('size', {})).result)).toBe(88);
      });
      await using('crashy', async (p) => expect(p.usesContext).toBe(false));
    });

    it('reports progress at each step, in order, before the answer', async () => {
      await using('voice', async (p) => {
        const { voice, heard } = listener();
        const answer = await p.execute('steps', { n: 4, ms: 20 }, { voice });
        expect(answer.result).toBe('4');
        expect(heard.progress).toEqual([
          [1, 4, 'step'],
          [2, 4, 'step'],
          [3, 4, 'step'],
          [4, 4, 'step'],
        ]);
      });
    });

    it('merges reports of a tight loop: a handful reach Node, the last one always', async () => {
      await using('voice', async (p) => {
        const { voice, heard } = listener();
        const started = Date.now();
        await p.execute('flood', { n: 200_000 }, { voice });
        const elapsed = Date.now() - started;
        // One report per 10 ms at most, plus the first and the last.
        expect(heard.progress.length).toBeLessThanOrEqual(Math.ceil(elapsed / 10) + 2);
        expect(heard.progress.at(-1)).toEqual([200_000, 200_000, undefined]);
        const dones = heard.progress.map(([done]) => done);
        expect([...dones].sort((a, b) => a - b)).toEqual(dones);
      });
    });

    it('logs at every level, with the logger, JSON data or the text, and refuses a bad level or no data', async () => {
      await using('voice', async (p) => {
        const { voice, heard } = listener();
        const answer = await p.execute('logs', {}, { voice });
        expect(answer.result).toBe('1 1'); // ENTROPIC_ERROR_INVALID_ARGUMENT twice
        const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
        expect(heard.logs).toEqual([
          ...levels.map((level, i) => [level, { level: i }, undefined]),
          ['warning', [1, 2, 3], 'voice.disk'],
          ['info', 'not json', undefined],
        ]);
      });
    });

    it('attaches a structured result; one that is not a JSON object is a bad answer', async () => {
      await using('voice', async (p) => {
        const answer = await p.execute('structured', { json: '{"n":7}' });
        expect(answer.structured).toEqual({ n: 7 });
        expect(answer.result).toBe('structured');
        expect((await p.execute('size', {})).structured).toBeUndefined();
        const notJson = await callError(p.execute('structured', { json: '{n:' }));
        expect(notJson.code).toBe('ENTROPIC_PLUGIN_BAD_ANSWER');
        expect(notJson.message).toContain('the structured result of tool "structured" is not JSON');
        const array = await callError(p.execute('structured', { json: '[1]' }));
        expect(array.message).toContain('is not a JSON object (an array)');
        expect(p.tools.find((t) => t.name === 'structured')?.outputSchema).toEqual({
          type: 'object',
          properties: { n: { type: 'integer' } },
          required: ['n'],
        });
      });
    });

    it('hands the caller over: subject, scopes, protocol, request id, allowed headers case-insensitively', async () => {
      await using('voice', async (p) => {
        const caller = {
          subject: 'ada\u0007',
          scopes: ['files:read', 'files:write'],
          protocolVersion: '2025-11-25',
          requestId: 'req-9',
          headers: { 'x-tenant': 'acme' },
        };
        const answer = await p.execute('whoami', {}, { caller });
        expect(answer.result).toBe('ada\ufffd|files:read files:write|2025-11-25|"req-9"|acme|(null)');
        expect((await p.execute('whoami', {})).result).toBe('(null)|(null)|(null)|(null)|(null)|(null)');
      });
    });

    it('a cancelled call returns early and the instance goes on, in the same process', async () => {
      await using('voice', async (p) => {
        const before = await pidOf(p);
        const controller = new AbortController();
        const { heard } = listener();
        const voice: CallVoice = {
          progress: (done, total, message) => {
            heard.progress.push([done, total, message]);
            if (done === 2) controller.abort();
          },
        };
        const cancelled = callError(
          p.execute('steps', { n: 1000, ms: 50 }, { signal: controller.signal, voice }),
        );
        expect((await cancelled).code).toBe('ENTROPIC_ERROR_CANCELLED');
        const after = await pidOf(p); // waits for the cancelled call: 1000 steps would take 50 s
        expect(after.pid).toBe(before.pid);
        expect(after.calls).toBe(before.calls + 2);
        expect(heard.progress.length).toBeLessThan(10);
      });
    }, 30_000);

    it('a call past its time limit returns early the same way', async () => {
      await using('voice', async (p) => {
        const before = await pidOf(p);
        const late = await callError(p.execute('steps', { n: 1000, ms: 50 }, { timeoutMs: 150 }));
        expect(late.code).toBe('ENTROPIC_ERROR_TIMEOUT');
        expect((await pidOf(p)).pid).toBe(before.pid);
      });
    }, 30_000);

    it('options are checked: voice and caller must be objects', async () => {
      const p = await open('voice');
      try {
        await expect(p.execute('size', {}, { voice: 1 as unknown as CallVoice })).rejects.toThrow(
          /options.voice/,
        );
        await expect(p.execute('size', {}, { caller: 'x' as never })).rejects.toThrow(/options.caller/);
      } finally {
        await p.close();
      }
    });
  });
}
