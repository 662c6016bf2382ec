/**
 * Tasks over real HTTP without auth and without a session (2026-07-28, and 2025-11-25 stateless mode) belong
 * to the client's address, the per-client limits' notion of a client: behind a trusted proxy, the address it
 * put last in X-Forwarded-For. One address holding its `maxTasksPerPrincipal` running tasks does not refuse
 * another address's task calls, and another address gets "not found" for its task ids.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders, postModern } from './support/modern-wire.js';

const DECLARED = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const LIMIT = 2;
let direct: HttpServerHandle;
let stateless: HttpServerHandle;
let ids = 0;

function holdServer(): McpServer {
  const mcp = new McpServer(
    { name: 'tasks-clients', version: '1.0.0' },
    { tasks: { maxTasksPerPrincipal: LIMIT, syncWindowMs: 0 } },
  );
  mcp.addTool(
    { name: 'hold', execution: { taskSupport: 'optional' } },
    (_args, ctx) => new Promise((_resolve, reject) => ctx.onAbort(() => reject(new Error('stopped')))),
  );
  return mcp;
}

beforeAll(async () => {
  direct = await serveHttp(holdServer(), { trustedProxies: ['127.0.0.1'] });
  stateless = await serveHttp(holdServer(), { trustedProxies: ['127.0.0.1'], stateless: true });
});

afterAll(async () => {
  await direct?.close();
  await stateless?.close();
});

/** A 2026-07-28 request as forwarded for `address` by the trusted proxy (this test, on 127.0.0.1). */
async function modern(address: string, method: string, params: Record<string, unknown>) {
  const body = { jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: envelope(DECLARED) } };
  const headers: Record<string, string> = {
    ...modernHeaders(body),
    'x-forwarded-for': `198.51.100.7, ${address}`,
  };
  if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
  return (await postModern(direct.url, body, headers)).message;
}

/** A 2025-11-25 request to the stateless endpoint, forwarded for `address`. */
async function legacy(address: string, method: string, params: Record<string, unknown>) {
  const body = { jsonrpc: '2.0', id: ++ids, method, params };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    'x-forwarded-for': address,
  };
  return (await postModern(stateless.url, body, headers)).message;
}

describe('tasks without auth belong to the client address', () => {
  it('2026-07-28: one address at its limit leaves another served, and keeps its task ids to itself', async () => {
    const held: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const made = await modern('10.0.0.1', 'tools/call', { name: 'hold', arguments: {} });
      expect(made?.result, `task ${i + 1} of 10.0.0.1`).toMatchObject({ resultType: 'task' });
      held.push((made?.result as { taskId: string } | undefined)?.taskId as string);
    }
    const refused = await modern('10.0.0.1', 'tools/call', { name: 'hold', arguments: {} });
    expect(refused?.error).toMatchObject({ code: -32000, data: { limit: LIMIT } });

    const other = await modern('10.0.0.2', 'tools/call', { name: 'hold', arguments: {} });
    expect(other?.result, 'a task of another address').toMatchObject({ resultType: 'task' });
    const otherId = (other?.result as { taskId: string } | undefined)?.taskId as string;

    const taskId = held[0] as string;
    expect((await modern('10.0.0.2', 'tasks/get', { taskId }))?.error).toMatchObject({ code: -32602 });
    expect((await modern('10.0.0.2', 'tasks/cancel', { taskId }))?.error).toMatchObject({ code: -32602 });
    expect((await modern('10.0.0.1', 'tasks/get', { taskId }))?.result).toMatchObject({ status: 'working' });
    for (const id of held) await modern('10.0.0.1', 'tasks/cancel', { taskId: id });
    await modern('10.0.0.2', 'tasks/cancel', { taskId: otherId });
  });

  it('2025-11-25 stateless: the same per address, and tasks/list shows an address only its own', async () => {
    const held: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const made = await legacy('10.0.1.1', 'tools/call', { name: 'hold', arguments: {}, task: {} });
      const task = (made?.result as { task?: { taskId: string } } | undefined)?.task;
      expect(task, `task ${i + 1} of 10.0.1.1`).toBeDefined();
      held.push(task?.taskId as string);
    }
    expect(
      (await legacy('10.0.1.1', 'tools/call', { name: 'hold', arguments: {}, task: {} }))?.error,
    ).toMatchObject({
      code: -32000,
    });
    const other = await legacy('10.0.1.2', 'tools/call', { name: 'hold', arguments: {}, task: {} });
    expect(other?.result, 'a task of another address').toHaveProperty('task');
    expect((await legacy('10.0.1.2', 'tasks/get', { taskId: held[0] }))?.error).toMatchObject({
      code: -32602,
    });
    const listed = (await legacy('10.0.1.1', 'tasks/list', {}))?.result as { tasks: { taskId: string }[] };
    expect(listed.tasks.map((t) => t.taskId).sort()).toEqual([...held].sort());
    for (const taskId of held) await legacy('10.0.1.1', 'tasks/cancel', { taskId });
  });
});
