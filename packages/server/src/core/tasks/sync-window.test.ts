// 2026-07-28 sync window by default: a quick call of a task-capable tool answers directly, a slow one becomes a task;
// a question asked once the window is over finds a task even before the window's timer has run.
import { holdFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { modernPeer, pollTask } from '../../../test/support/modern.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('the default sync window (tasks.syncWindowMs unset)', () => {
  function server() {
    const s = new McpServer({ name: 'window', version: '1' }, { tasks: { pollIntervalMs: 20 } });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A few milliseconds of work: past the turn the call started in, well within the window.
    s.addTool({ name: 'quick', execution: { taskSupport: 'optional' } }, async () => {
      await holdFor(20);
      return { content: [text('quick')] };
    });
    // Runs until the test releases it, so it outlasts any window.
    s.addTool({ name: 'slow', execution: { taskSupport: 'optional' } }, async () => {
      await held;
      return { content: [text('slow')] };
    });
    return { s, release: () => release() };
  }

  it('answers a quick call of a task-capable tool directly, to a client that declared the extension', async () => {
    const { s } = server();
    const peer = await modernPeer(s, TASKS);
    const answer = await peer.modern('tools/call', { name: 'quick', arguments: {} });
    expect(answer.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'quick' }],
    });
  });

  it('answers a call still running after the window with a task, whose result comes later', async () => {
    const { s, release } = server();
    const peer = await modernPeer(s, TASKS);
    const started = Date.now();
    const created = await peer.modern('tools/call', { name: 'slow', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    // Not at once: the window (1 s by default) passed first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    release();
    const taskId = (created.result as { taskId: string }).taskId;
    const done = await pollTask(peer, taskId, (t) => t.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'slow' }] });
  });
});

describe('a question asked once the window is over', () => {
  const ASKS = { elicitation: {}, ...TASKS };
  const FORM = { type: 'object', properties: { ok: { type: 'boolean' } } } as const;
  /** Holds the thread for `ms` (a handler busy in synchronous work): no timer of the process runs meanwhile. */
  const busy = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      // work
    }
  };

  function server(syncWindowMs: number) {
    const s = new McpServer(
      { name: 'window', version: '1' },
      { tasks: { pollIntervalMs: 20, syncWindowMs } },
    );
    // Works past the window in the turn the call started in, so the window's timer cannot have run, then asks.
    s.addTool({ name: 'late', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      busy(syncWindowMs + 30);
      const answer = await ctx.elicit('Go on?', FORM, { key: 'go' });
      return { content: [text(`answered ${answer.action}`)] };
    });
    // Asks at once: within the window, so the round ends with input_required and no task is made.
    s.addTool({ name: 'early', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      const answer = await ctx.elicit('Go on?', FORM, { key: 'go' });
      return { content: [text(`answered ${answer.action}`)] };
    });
    return s;
  }

  for (const window of [0, 40]) {
    it(`makes the call a task whose question waits for tasks/update (syncWindowMs ${window})`, async () => {
      const peer = await modernPeer(server(window), ASKS);
      const created = (await peer.modern('tools/call', { name: 'late', arguments: {} })).result;
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = (created as { taskId: string }).taskId;
      const waiting = await pollTask(peer, taskId, (t) => t.status === 'input_required');
      expect(Object.keys(waiting.inputRequests as object)).toEqual(['go']);
      await peer.modern('tasks/update', {
        taskId,
        inputResponses: { go: { action: 'accept', content: { ok: true } } },
      });
      const done = await pollTask(peer, taskId, (t) => t.status === 'completed');
      expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'answered accept' }] });
    });
  }

  it('leaves a question asked within the window to an input_required round', async () => {
    const peer = await modernPeer(server(60_000), ASKS);
    const answer = (await peer.modern('tools/call', { name: 'early', arguments: {} })).result;
    expect(answer).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys((answer as { inputRequests: object }).inputRequests)).toEqual(['go']);
  });
});
