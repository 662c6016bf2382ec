// Tests of middleware around calls that become tasks (both eras), around cancelled and timed-out calls, and
// around 2026-07-28 calls that ask the client for input over several rounds.

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer, pollTask } from '../../../test/support/modern.js';
import { text } from '../content.js';
import { ErrorCode } from '../errors.js';
import { McpServer } from '../server.js';
import type { ToolResult } from '../types.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const YES_NO = { type: 'object', properties: { ok: { type: 'boolean' } } } as const;

/** A server whose `job` tool waits for `release()`, and a middleware that stamps its result. */
function taskServer(limit?: number) {
  let release: () => void = () => {};
  const gate = new Promise<void>((open) => {
    release = open;
  });
  const seen: unknown[] = [];
  const mcp = new McpServer(
    { name: 'mw-tasks', version: '1' },
    { tasks: { pollIntervalMs: 20, ...(limit === undefined ? {} : { maxTasksPerPrincipal: limit }) } },
  );
  mcp.addTool({ name: 'job', execution: { taskSupport: 'optional' } }, async () => {
    await gate;
    return { content: [text('done')] };
  });
  mcp.use({ tool: 'job' }, async (ctx, next) => {
    if (ctx.params.arguments?.cached === true) return { content: [text('from cache')] };
    const result = await next().catch((error: Error) => {
      seen.push(error.message);
      throw error;
    });
    seen.push(result);
    return { ...result, content: [...result.content, text('stamped')] };
  });
  return { mcp, seen, release: () => release() };
}

const texts = (result: unknown) => (result as ToolResult).content.map((c) => (c as { text: string }).text);

describe('middleware around a call that becomes a task', () => {
  it('2025-11-25: the client gets the task at once; next() resolves with the tool result, and what the middleware returns is the task result', async () => {
    const { mcp, seen, release } = taskServer();
    const { peer } = await initializedPeer(mcp);
    const created = await peer.call('tools/call', { name: 'job', arguments: {}, task: {} });
    const taskId = (created.task as { taskId: string }).taskId;
    expect(created.task).toMatchObject({ status: 'working' });
    expect(seen).toEqual([]); // the middleware is still waiting in next()
    release();
    const result = await peer.call('tasks/result', { taskId });
    expect(texts(result)).toEqual(['done', 'stamped']);
    expect(seen).toEqual([{ content: [{ type: 'text', text: 'done' }] }]);
  });

  it('2026-07-28: the same, once the call outlived the sync window and became a task', async () => {
    const { mcp, seen, release } = taskServer();
    const peer = await modernPeer(mcp, { extensions: { [TASKS]: {} } });
    const made = (await peer.modern('tools/call', { name: 'job', arguments: {} })).result as Record<
      string,
      unknown
    >;
    expect(made).toMatchObject({ resultType: 'task' });
    expect(seen).toEqual([]);
    release();
    const task = await pollTask(peer, made.taskId as string, (t) => t.status === 'completed');
    expect(texts(task.result)).toEqual(['done', 'stamped']);
    expect(seen).toEqual([{ content: [{ type: 'text', text: 'done' }] }]);
  });

  it('2025-11-25: a task the store refuses gives the client the error, and next() rejects saying the tool did not run', async () => {
    const { mcp, seen, release } = taskServer(1);
    const { peer } = await initializedPeer(mcp);
    await peer.call('tools/call', { name: 'job', arguments: {}, task: {} });
    const refused = await peer.request('tools/call', { name: 'job', arguments: {}, task: {} });
    expect(refused.error).toMatchObject({ code: expect.any(Number) });
    await waitFor(() => seen.length === 1, 'the middleware to hear of the refusal');
    expect(seen).toEqual(['the task was refused, so the tool did not run']);
    release();
  });

  it('a middleware that answers by itself makes no task: the client gets that result directly', async () => {
    const { mcp } = taskServer();
    const { peer } = await initializedPeer(mcp);
    const legacy = await peer.call('tools/call', { name: 'job', arguments: { cached: true }, task: {} });
    expect(legacy).toEqual({ content: [{ type: 'text', text: 'from cache' }] });
    expect((await peer.call('tasks/list', {})).tasks).toEqual([]);
    const modern = await modernPeer(mcp, { extensions: { [TASKS]: {} } });
    const answer = await modern.modern('tools/call', { name: 'job', arguments: { cached: true } });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ text: 'from cache' }] });
  });
});

describe('middleware and the end of a request', () => {
  it('a cancelled call aborts the middleware signal, sends nothing, and next() no longer runs the tool', async () => {
    const mcp = new McpServer({ name: 'mw', version: '1' });
    let ran = false;
    mcp.addTool({ name: 'slow' }, () => {
      ran = true;
      return { content: [] };
    });
    let proceed: (() => void) | undefined;
    const trail: string[] = [];
    mcp.use({ tool: 'slow' }, async (ctx, next) => {
      await new Promise<void>((go) => {
        proceed = go;
      });
      trail.push(`aborted=${ctx.signal.aborted}`);
      return next().catch((error: Error) => {
        trail.push(error.message);
        throw error;
      });
    });
    const { peer } = await initializedPeer(mcp);
    void peer.request('tools/call', { name: 'slow' }, 'c1');
    await waitFor(() => proceed !== undefined, 'the middleware to wait');
    await peer.notify('notifications/cancelled', { requestId: 'c1', reason: 'enough' });
    await peer.call('ping');
    proceed?.();
    await waitFor(() => trail.length === 2, 'the middleware to go on');
    expect(trail).toEqual([
      'aborted=true',
      'tools/call ended before the method ran (cancelled or timed out)',
    ]);
    expect(ran).toBe(false);
    await peer.call('ping');
    expect(peer.received.some((m) => m.id === 'c1')).toBe(false);
  });

  it('the handler timeout counts the time spent in middleware: -32001 at the deadline, the signal aborted', async () => {
    const mcp = new McpServer({ name: 'mw', version: '1' }, { handlerTimeoutMs: 50 });
    mcp.addTool({ name: 'quick' }, () => ({ content: [text('late')] }));
    let aborted = false;
    mcp.use({ tool: 'quick' }, async (ctx, next) => {
      await new Promise<void>((stop) => ctx.onAbort(stop));
      aborted = ctx.signal.aborted;
      return next();
    });
    const { peer } = await initializedPeer(mcp);
    const answer = await peer.request('tools/call', { name: 'quick' });
    expect(answer.error).toEqual({
      code: ErrorCode.RequestTimeout,
      message: 'tools/call timed out after 50 ms',
    });
    await waitFor(() => aborted, 'the middleware to see the abort');
  });
});

describe('middleware around 2026-07-28 calls that ask for input', () => {
  it('next() rejects while input is missing, the round ends with input_required, and params rewritten in place do not break the next round', async () => {
    const mcp = new McpServer({ name: 'mw', version: '1' });
    mcp.addTool({ name: 'confirm' }, async (args, ctx) => {
      const answer = await ctx.elicit(`Delete ${String(args.what)}?`, YES_NO);
      return { content: [text(`${answer.action} ${String(args.what)} as ${String(args.actor)}`)] };
    });
    const rounds: string[] = [];
    mcp.use({ tool: 'confirm' }, async (ctx, next) => {
      if (ctx.params.arguments !== undefined) ctx.params.arguments.actor = 'middleware';
      try {
        const result = await next();
        rounds.push(`round ${ctx.round}: result`);
        return result;
      } catch (error) {
        rounds.push(`round ${ctx.round}: ${(error as Error).name}, awaitingInput=${ctx.awaitingInput}`);
        throw error;
      }
    });
    const peer = await modernPeer(mcp, { elicitation: {} });
    const params = { name: 'confirm', arguments: { what: 'logs' } };
    const first = (await peer.modern('tools/call', structuredClone(params))).result as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({ resultType: 'input_required' });
    const key = Object.keys(first.inputRequests as object)[0] as string;
    const second = await peer.modern('tools/call', {
      ...structuredClone(params),
      requestState: first.requestState,
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
    });
    expect(second.error).toBeUndefined();
    expect(texts(second.result)).toEqual(['accept logs as middleware']);
    expect(rounds).toEqual(['round 1: InputRequired, awaitingInput=true', 'round 2: result']);
  });
});
