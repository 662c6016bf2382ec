// The plugin context in both hosting modes (the shared cases), and what only the isolated mode does with it:
// a plugin that never looks at its context is killed after the grace period, and a call cancelled while
// queued is skipped by the host instead of killing it.

import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { holdFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { loadPlugin, type Plugin } from '../src/index.js';
import { runContextCases } from './support/suite/context-cases.js';
import { callError } from './support/suite/helpers.js';

runContextCases('process');
runContextCases('none');

const quiet = { onStderr: () => {} };
const pidOf = async (p: Plugin) => Number((await p.execute('pid', {})).result.split(' ')[0]);

describe('plugin context, isolated mode only', () => {
  it('a plugin that never polls is killed once the grace period is over, then restarted', async () => {
    const p = await loadPlugin(fixture('voice'), { ...quiet, cancelGraceMs: 300 });
    try {
      const before = await pidOf(p);
      const late = await callError(p.execute('ignore', { ms: 60_000 }, { timeoutMs: 100 }));
      expect(late.code).toBe('ENTROPIC_ERROR_TIMEOUT');
      const after = await pidOf(p);
      expect(after).not.toBe(before);
    } finally {
      await p.close();
    }
  }, 30_000);

  it('within the grace period the host is left alone', async () => {
    const p = await loadPlugin(fixture('voice'), { ...quiet, cancelGraceMs: 10_000 });
    try {
      const before = await pidOf(p);
      const late = await callError(p.execute('ignore', { ms: 500 }, { timeoutMs: 50 }));
      expect(late.code).toBe('ENTROPIC_ERROR_TIMEOUT');
      expect(await pidOf(p)).toBe(before); // answered after the ignored call ended, by the same host
    } finally {
      await p.close();
    }
  }, 30_000);

  it('a call cancelled while queued behind another is skipped by the host, which keeps running', async () => {
    const p = await loadPlugin(fixture('voice'), quiet);
    try {
      const before = await pidOf(p);
      const running = p.execute('steps', { n: 2, ms: 100 });
      const controller = new AbortController();
      const queued = p.execute('steps', { n: 1, ms: 0 }, { signal: controller.signal });
      await holdFor(50); // the queued call is at the host, behind the running one (200 ms), when cancelled
      controller.abort();
      expect((await callError(queued)).code).toBe('ENTROPIC_ERROR_CANCELLED');
      expect((await running).result).toBe('2');
      const after = Number((await p.execute('pid', {})).result.split(' ')[1]);
      expect(await pidOf(p)).toBe(before);
      expect(after).toBe(3); // pid, steps, pid: the queued call never ran
    } finally {
      await p.close();
    }
  }, 30_000);
});
