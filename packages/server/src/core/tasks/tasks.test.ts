// Tests of tasks in both eras over memory: creation, status, input, cancellation, scoping, limits, TTL.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { connectInMemory, initializedPeer } from '../../../test/support/in-memory.js';
import { ModernPeer, pollTask } from '../../../test/support/modern.js';
import type { Message } from '../../../test/support/peer.js';
import { text } from '../content.js';
import type { HandlerContext } from '../handler-types.js';
import { McpServer } from '../server.js';
import type { TaskOptions } from './types.js';

const EXT = 'io.modelcontextprotocol/tasks';
const DECLARED = { elicitation: {}, extensions: { [EXT]: {} } };
const FORM = { type: 'object', properties: { ok: { type: 'boolean' } } } as const;

function work(ms: number, ctx: HandlerContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    ctx.onAbort(() => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    });
  });
}

function fixture(options: TaskOptions = {}, pageSize?: number) {
  const aborted: string[] = [];
  // `ask` waits until the test has its call's task back, so it asks as a task's handler whatever the load: a
  // fixed pause could end before a loaded event loop closes the sync window, and the call would then end with
  // a 2026-07-28 input_required round instead of becoming a task.
  let letAsk: () => void = () => {};
  const mayAsk = new Promise<void>((open) => {
    letAsk = open;
  });
  const server = new McpServer(
    { name: 't', version: '1' },
    { pageSize, tasks: { pollIntervalMs: 50, syncWindowMs: 0, ...options } },
  );
  server.addTool(
    {
      name: 'job',
      inputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
      execution: { taskSupport: 'optional' },
    },
    async ({ ms }, ctx) => {
      try {
        await work(5, ctx);
        ctx.progress(1, 2, 'half way');
        await work(ms ?? 50, ctx);
      } catch (error) {
        aborted.push(String(ctx.requestId));
        throw error;
      }
      return { content: [text(`done after ${ms ?? 50} ms`)] };
    },
  );
  server.addTool({ name: 'ask', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await mayAsk; // still working when the client first asks
    const answer = await ctx.elicit('Go on?', FORM, { key: 'go' });
    return { content: [text(`answered ${answer.action}`)] };
  });
  server.addTool({ name: 'quick' }, () => ({ content: [text('sync')] }));
  return { server, aborted, letAsk: () => letAsk() };
}

async function modernPeer(server: McpServer, principal?: string): Promise<ModernPeer> {
  const { handle } = await connectInMemory(server, principal === undefined ? {} : { context: { principal } });
  const peer = new ModernPeer(handle);
  peer.capabilities = DECLARED;
  return peer;
}

describe('tasks in 2026-07-28', () => {
  it('turn a call into a task: the status message comes from progress, the result is inlined, cancel reaches onAbort', async () => {
    const { server, aborted } = fixture();
    const peer = await modernPeer(server);
    const created = (await peer.modern('tools/call', { name: 'job', arguments: { ms: 80 } }))
      .result as Record<string, unknown>;
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    const taskId = created.taskId as string;
    const working = await pollTask(peer, taskId, (t) => t.statusMessage !== undefined);
    expect(working).toMatchObject({ status: 'working', statusMessage: 'half way', resultType: 'complete' });
    const done = await pollTask(peer, taskId, (t) => t.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'done after 80 ms' }] });

    const long = (await peer.modern('tools/call', { name: 'job', arguments: { ms: 60_000 } })).result as {
      taskId: string;
    };
    const ack = await peer.modern('tasks/cancel', { taskId: long.taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(await pollTask(peer, long.taskId, (t) => t.status !== 'working')).toMatchObject({
      status: 'cancelled',
    });
    await waitFor(() => aborted.length === 1, 'the cancelled handler to stop');
    expect(aborted).toHaveLength(1);
    // Without the extension the same tool answers directly; a sync tool never becomes a task.
    peer.capabilities = {};
    const direct = (await peer.modern('tools/call', { name: 'job', arguments: { ms: 1 } })).result;
    expect(direct).toMatchObject({ resultType: 'complete', content: [{ text: 'done after 1 ms' }] });
    peer.capabilities = DECLARED;
    expect((await peer.modern('tools/call', { name: 'quick' })).result).toMatchObject({
      resultType: 'complete',
    });
  });

  it('wait for input while a task runs: input_required until tasks/update answers (a malformed answer is refused)', async () => {
    const { server, letAsk } = fixture();
    const peer = await modernPeer(server);
    const created = (await peer.modern('tools/call', { name: 'ask' })).result as Record<string, unknown>;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    expect(await pollTask(peer, taskId, () => true)).toMatchObject({ status: 'working' });
    letAsk();
    const waiting = await pollTask(peer, taskId, (t) => t.status === 'input_required');
    expect(waiting.inputRequests).toEqual({
      go: {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Go on?', requestedSchema: FORM },
      },
    });
    const bad = await peer.modern('tasks/update', { taskId, inputResponses: { go: { action: 'maybe' } } });
    expect(bad.error).toMatchObject({ code: -32602, data: { pointer: '/params/inputResponses/go' } });
    const ack = await peer.modern('tasks/update', {
      taskId,
      inputResponses: { go: { action: 'accept' }, other: {} },
    });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(await pollTask(peer, taskId, (t) => t.status === 'completed')).toMatchObject({
      result: { content: [{ text: 'answered accept' }] },
    });
  });

  it('keep a task to its owner: another connection, or another principal, gets "not found"', async () => {
    const { server } = fixture();
    const alice = await modernPeer(server, 'alice');
    const aliceAgain = await modernPeer(server, 'alice');
    const bob = await modernPeer(server, 'bob');
    const anonymous = await modernPeer(server);
    const { taskId } = (await alice.modern('tools/call', { name: 'job', arguments: { ms: 60_000 } }))
      .result as {
      taskId: string;
    };
    expect((await aliceAgain.modern('tasks/get', { taskId })).result).toMatchObject({
      taskId,
      status: 'working',
    });
    for (const other of [bob, anonymous]) {
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
      ] as const) {
        const refused = await other.modern(method, params);
        expect(refused.error, method).toMatchObject({ code: -32602 });
      }
    }
    expect((await alice.modern('tasks/get', { taskId })).result).toMatchObject({ status: 'working' });
    await alice.modern('tasks/cancel', { taskId });
  });

  it('limit the tasks one principal runs at once, and forget a task at its TTL', async () => {
    const { server, aborted } = fixture({ maxTasksPerPrincipal: 2, defaultTtlMs: 300 });
    const alice = await modernPeer(server, 'alice');
    const bob = await modernPeer(server, 'bob');
    const call = (peer: ModernPeer) => peer.modern('tools/call', { name: 'job', arguments: { ms: 60_000 } });
    const first = (await call(alice)).result as { taskId: string };
    await call(alice);
    const third = await call(alice);
    expect(third.error).toMatchObject({ code: -32000, data: { limit: 2 } });
    expect((third.error as { message: string }).message).toContain('maxTasksPerPrincipal');
    expect((await call(bob)).result).toMatchObject({ resultType: 'task' });
    await alice.modern('tasks/cancel', { taskId: first.taskId });
    expect((await call(alice)).result).toMatchObject({ resultType: 'task' });
    await waitFor(
      async () => (await alice.modern('tasks/get', { taskId: first.taskId })).error !== undefined,
      'the task forgotten at its TTL',
    );
    expect((await alice.modern('tasks/get', { taskId: first.taskId })).error).toMatchObject({ code: -32602 });
    await waitFor(() => aborted.length === 5, 'the handlers of the expired tasks to stop');
    // Every handler was stopped: the cancelled one, the refused one (a 2026-07-28 call starts before it
    // becomes a task), and those whose tasks expired (two of alice's, bob's).
    expect(aborted.length).toBe(5);
  });

  it('cancel the tasks a connection owned when it closes', async () => {
    const { server, aborted } = fixture();
    const peer = await modernPeer(server);
    await peer.modern('tools/call', { name: 'job', arguments: { ms: 60_000 } });
    await peer.handle.close();
    await waitFor(() => aborted.length === 1, 'the handler to stop when its client left');
    expect(aborted).toHaveLength(1);
  });

  it('report status changes on subscriptions/listen for the task ids asked for', async () => {
    const { server } = fixture();
    const peer = await modernPeer(server);
    const { taskId } = (await peer.modern('tools/call', { name: 'job', arguments: { ms: 60 } })).result as {
      taskId: string;
    };
    void peer.modern('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const done = await peer.waitFor(
      (m) => m.method === 'notifications/tasks' && (m.params as Message).status === 'completed',
    );
    expect(done.params).toMatchObject({ taskId, result: { content: [{ text: 'done after 60 ms' }] } });
    const ack = peer.notifications.find((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect((ack?.params as { notifications?: unknown } | undefined)?.notifications).toEqual({
      taskIds: [taskId],
    });
    peer.capabilities = {};
    const refused = await peer.modern('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    expect(refused.error).toMatchObject({ code: -32021 });
  });
});

describe('tasks in 2025-11-25', () => {
  it('run a call with params.task as a task: tasks/get, tasks/result (waits, carries related-task), tasks/list, status notifications', async () => {
    const { server } = fixture({ defaultTtlMs: 1000, maxTtlMs: 5000 }, 2);
    const { peer } = await initializedPeer(server, {}, '2025-11-25');
    const caps = peer.initializeResult?.capabilities as Record<string, unknown>;
    expect(caps.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(caps.extensions).toEqual({ [EXT]: {} });
    const tools = (await peer.call('tools/list')).tools as Record<string, unknown>[];
    expect(tools.find((t) => t.name === 'job')?.execution).toEqual({ taskSupport: 'optional' });

    const created = await peer.call('tools/call', {
      name: 'job',
      arguments: { ms: 80 },
      task: { ttl: 60_000 },
    });
    const task = created.task as Record<string, unknown>;
    expect(task).toMatchObject({ status: 'working', ttl: 5000, pollInterval: 50 });
    const taskId = task.taskId as string;
    expect(await peer.call('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    const result = await peer.call('tasks/result', { taskId });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'done after 80 ms' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    const status = await peer.waitFor(
      (m) => m.method === 'notifications/tasks/status' && (m.params as Message).status === 'completed',
    );
    expect(status.params).toMatchObject({ taskId });
    const progress = peer.notifications.find((m) => m.method === 'notifications/progress');
    expect(progress).toBeUndefined(); // no progressToken was sent

    const ids = [taskId];
    for (let i = 0; i < 2; i++) {
      const next = await peer.call('tools/call', { name: 'job', arguments: { ms: 1 }, task: {} });
      ids.unshift((next.task as { taskId: string }).taskId);
      const made = Date.now();
      await waitFor(() => Date.now() > made, 'the next millisecond'); // distinct creation times: newest first is the order made
    }
    const page1 = await peer.call('tasks/list');
    const page2 = await peer.call('tasks/list', { cursor: page1.nextCursor as string });
    const listed = [...(page1.tasks as { taskId: string }[]), ...(page2.tasks as { taskId: string }[])];
    expect(listed.map((t) => t.taskId)).toEqual(ids);
    expect(page2.nextCursor).toBeUndefined();
    expect((await peer.request('tasks/list', { cursor: 'junk' })).error).toMatchObject({ code: -32602 });
    // Another session sees none of them.
    const { peer: other } = await initializedPeer(server, {}, '2025-11-25');
    expect(await other.call('tasks/list')).toEqual({ tasks: [] });
  });

  it("tie a task's log and progress notifications to it with the related-task _meta; progress only for a progressToken", async () => {
    const { server } = fixture();
    let started = 0;
    const created = () => peer.received.filter((m) => (m.result as { task?: unknown })?.task).length;
    server.addTool({ name: 'chatty', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      const mine = ++started;
      await waitFor(() => created() >= mine, 'the CreateTaskResult to leave'); // the notifications come after it
      ctx.log('info', { step: 'started' }, 'chatty');
      ctx.progress(1, 2, 'half way');
      ctx.progress(2, 2);
      return { content: [text('ok')] };
    });
    const { peer } = await initializedPeer(server, {}, '2025-11-25');
    await peer.call('logging/setLevel', { level: 'info' });
    const related = (taskId: string) => ({ 'io.modelcontextprotocol/related-task': { taskId } });
    const heard = (taskId: string, method: string) =>
      peer.notifications
        .filter((m) => m.method === method)
        .map((m) => m.params as Record<string, unknown>)
        .filter((p) => JSON.stringify(p._meta).includes(taskId));

    const tracked = await peer.call('tools/call', {
      name: 'chatty',
      task: {},
      _meta: { progressToken: 'p-1' },
    });
    const taskId = (tracked.task as { taskId: string }).taskId;
    expect(await peer.call('tasks/result', { taskId })).toMatchObject({ content: [{ text: 'ok' }] });
    expect(heard(taskId, 'notifications/message')).toEqual([
      { level: 'info', logger: 'chatty', data: { step: 'started' }, _meta: related(taskId) },
    ]);
    expect(heard(taskId, 'notifications/progress')).toEqual([
      { progressToken: 'p-1', progress: 1, total: 2, message: 'half way', _meta: related(taskId) },
      { progressToken: 'p-1', progress: 2, total: 2, _meta: related(taskId) },
    ]);

    const untracked = await peer.call('tools/call', { name: 'chatty', task: {} });
    const otherId = (untracked.task as { taskId: string }).taskId;
    await peer.call('tasks/result', { taskId: otherId });
    expect(heard(otherId, 'notifications/message')).toHaveLength(1);
    expect(heard(otherId, 'notifications/progress')).toEqual([]);
    expect(peer.notifications.filter((m) => m.method === 'notifications/progress')).toHaveLength(2);
  });

  it('cancel, and refuse what 2025-11-25 refuses', async () => {
    const { server, aborted } = fixture();
    server.addTool({ name: 'only_task', execution: { taskSupport: 'required' } }, () => ({ content: [] }));
    const { peer } = await initializedPeer(server, {}, '2025-11-25');
    const { task } = (await peer.call('tools/call', {
      name: 'job',
      arguments: { ms: 60_000 },
      task: {},
    })) as {
      task: { taskId: string };
    };
    const cancelled = await peer.call('tasks/cancel', { taskId: task.taskId });
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    await waitFor(() => aborted.length === 1, 'the cancelled handler to stop');
    const again = await peer.request('tasks/cancel', { taskId: task.taskId });
    expect(again.error).toMatchObject({
      code: -32602,
      message: "Cannot cancel task: already in terminal status 'cancelled'",
    });
    expect((await peer.request('tasks/result', { taskId: task.taskId })).error).toMatchObject({
      code: -32600,
    });
    expect((await peer.request('tools/call', { name: 'quick', task: {} })).error).toMatchObject({
      code: -32601,
    });
    expect((await peer.request('tools/call', { name: 'only_task' })).error).toMatchObject({ code: -32601 });
    expect((await peer.request('tools/call', { name: 'job', task: { ttl: -1 } })).error).toMatchObject({
      code: -32602,
      data: { pointer: '/params/task/ttl' },
    });
    expect((await peer.request('tasks/get', { taskId: 'nope' })).error).toMatchObject({ code: -32602 });
    // An older revision has no tasks: params.task is ignored.
    const { peer: old } = await initializedPeer(server, {}, '2025-06-18');
    expect(await old.call('tools/call', { name: 'job', arguments: { ms: 1 }, task: {} })).toMatchObject({
      content: [{ text: 'done after 1 ms' }],
    });
    expect((await old.request('tasks/list')).error).toMatchObject({ code: -32601 });
  });

  it('send input requests of a task to the client, tied to it, and stay input_required until answered', async () => {
    const { server, letAsk } = fixture();
    const { peer } = await initializedPeer(server, { elicitation: {} }, '2025-11-25');
    let release: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    peer.onServerRequest = async (request) => {
      await answered;
      return { action: 'accept', content: { ok: true }, request: request.method };
    };
    const { task } = (await peer.call('tools/call', { name: 'ask', task: {} })) as {
      task: { taskId: string };
    };
    letAsk();
    const asked = await peer.waitFor((m) => m.method === 'elicitation/create');
    expect((asked.params as { _meta: unknown })._meta).toEqual({
      'io.modelcontextprotocol/related-task': { taskId: task.taskId },
    });
    await waitFor(
      async () => (await peer.call('tasks/get', { taskId: task.taskId })).status === 'input_required',
      'the task to ask for input',
    );
    expect(await peer.call('tasks/get', { taskId: task.taskId })).toMatchObject({ status: 'input_required' });
    release?.();
    expect(await peer.call('tasks/result', { taskId: task.taskId })).toMatchObject({
      content: [{ text: 'answered accept' }],
    });
  });
});

describe('task support on tools', () => {
  it('is checked at registration and refused when tasks are turned off', () => {
    const plain = new McpServer({ name: 't', version: '1' });
    expect(plain.tasks).toBeUndefined();
    expect(() =>
      plain.addTool({ name: 'x', execution: { taskSupport: 'sometimes' as never } }, () => ({ content: [] })),
    ).toThrow(/"forbidden", "optional" or "required"/);
    plain.addTool({ name: 'y', execution: { taskSupport: 'optional' } }, () => ({ content: [] }));
    expect(plain.tasks).toBeDefined();
    const off = new McpServer({ name: 't', version: '1' }, { tasks: false });
    expect(() =>
      off.addTool({ name: 'z', execution: { taskSupport: 'required' } }, () => ({ content: [] })),
    ).toThrow(/tasks: false/);
    expect(() => new McpServer({ name: 't', version: '1' }, { tasks: { defaultTtlMs: 0 } })).toThrow(
      /defaultTtlMs/,
    );
  });
});
