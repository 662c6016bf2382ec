// 2026-07-28 sync window by default: a quick call of a task-capable tool answers directly, a slow one becomes a task.
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
