// Tests of 2026-07-28 tasks over memory, the rules the tasks extension states: a `required` task tool without
// the extension, a thrown error inlined in a failed task, a partial tasks/update, tasks/cancel after the end;
// a task outlives handlerTimeoutMs.
import { holdFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { type ModernPeer, modernPeer, pollTask } from '../../../test/support/modern.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';

const DECLARED = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const YES_NO = { type: 'object', properties: { ok: { type: 'boolean' } } } as const;

/**
 * The handlers wait until the test has the call's task back: they are still running after the sync window
 * whatever the machine's load, so the call becomes a task (a fixed sleep could end first on a loaded machine).
 */
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();
const later = () => gate;

function server(): McpServer {
  gate = new Promise((open) => {
    release = open;
  });
  const mcp = new McpServer(
    { name: 'modern-tasks', version: '1' },
    { tasks: { pollIntervalMs: 20, syncWindowMs: 0 } },
  );
  mcp.addTool({ name: 'must', execution: { taskSupport: 'required' } }, async () => {
    await later();
    return { content: [text('ran')] };
  });
  mcp.addTool({ name: 'breaks', execution: { taskSupport: 'optional' } }, async () => {
    await later();
    throw new Error('disk on fire');
  });
  mcp.addTool({ name: 'two', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await later();
    const [a, b] = await Promise.all([
      ctx.elicit('First?', YES_NO, { key: 'a' }),
      ctx.elicit('Second?', YES_NO, { key: 'b' }),
    ]);
    return { content: [text(`${a.action} ${b.action}`)] };
  });
  mcp.addTool({ name: 'quick', execution: { taskSupport: 'optional' } }, async () => {
    await later();
    return { content: [text('done')] };
  });
  return mcp;
}

async function started(peer: ModernPeer, name: string): Promise<string> {
  const made = (await peer.modern('tools/call', { name })).result as Record<string, unknown>;
  expect(made).toMatchObject({ resultType: 'task' });
  release();
  return made.taskId as string;
}

describe('tasks in 2026-07-28, as the extension states them', () => {
  it('refuses a required task tool to a client without the extension (-32021), runs it for one with it', async () => {
    const peer = await modernPeer(server(), DECLARED);
    peer.capabilities = { elicitation: {} };
    const refused = await peer.modern('tools/call', { name: 'must' });
    expect(refused.error).toMatchObject({ code: -32021 });
    expect(JSON.stringify(refused.error)).toContain('io.modelcontextprotocol/tasks');
    peer.capabilities = DECLARED;
    const taskId = await started(peer, 'must');
    expect(await pollTask(peer, taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'ran' }] },
    });
  });

  it('reads failed with the JSON-RPC error inlined when the tool throws', async () => {
    const peer = await modernPeer(server(), DECLARED);
    const taskId = await started(peer, 'breaks');
    const failed = await pollTask(peer, taskId, (t) => t.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect((failed.error as { message: string }).message).toContain('disk on fire');
    expect(failed).not.toHaveProperty('result');
  });

  it('keeps the input requests a tasks/update did not answer pending, until they are answered', async () => {
    const peer = await modernPeer(server(), DECLARED);
    const taskId = await started(peer, 'two');
    const asking = await pollTask(
      peer,
      taskId,
      (t) => Object.keys((t.inputRequests as object | undefined) ?? {}).length === 2,
    );
    expect(asking.status).toBe('input_required');
    await peer.modern('tasks/update', {
      taskId,
      inputResponses: { a: { action: 'accept', content: { ok: true } } },
    });
    const half = await pollTask(
      peer,
      taskId,
      (t) =>
        t.status !== 'working' && !Object.keys((t.inputRequests as object | undefined) ?? {}).includes('a'),
    );
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests as object)).toEqual(['b']);
    await peer.modern('tasks/update', { taskId, inputResponses: { b: { action: 'decline' } } });
    expect(await pollTask(peer, taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: 'accept decline' }] },
    });
  });

  it('acknowledges tasks/cancel for a task that already ended, and leaves it as it ended', async () => {
    const peer = await modernPeer(server(), DECLARED);
    const taskId = await started(peer, 'quick');
    await pollTask(peer, taskId, (t) => t.status === 'completed');
    const ack = await peer.modern('tasks/cancel', { taskId });
    expect(ack.error).toBeUndefined();
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect((await peer.modern('tasks/get', { taskId })).result).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'done' }] },
    });
  });
});

describe('tasks and the handler timeout', () => {
  it('run past handlerTimeoutMs: a task is bounded by its TTL, a plain call by the handler timeout', async () => {
    const server = new McpServer(
      { name: 't', version: '1' },
      { handlerTimeoutMs: 100, tasks: { pollIntervalMs: 50, syncWindowMs: 0 } },
    );
    server.addTool({ name: 'long', execution: { taskSupport: 'optional' } }, async () => {
      await holdFor(400); // work that takes four times the handler timeout
      return { content: [text('long done')] };
    });
    const peer = await modernPeer(server, DECLARED);
    const created = (await peer.modern('tools/call', { name: 'long', arguments: {} })).result as Record<
      string,
      unknown
    >;
    expect(created.resultType).toBe('task');
    const done = await pollTask(peer, created.taskId as string, (t) => t.status !== 'working');
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'long done' }] } });
    peer.capabilities = {};
    const plain = await peer.modern('tools/call', { name: 'long', arguments: {} });
    expect(plain.error).toMatchObject({ code: -32001 });
  });
});
