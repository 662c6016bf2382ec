/**
 * Tasks over real HTTP with `bearerAuth`: a task belongs to the principal of the token that made it,
 * in both eras — another token's caller gets "not found" for its id on every task method, the same
 * token through another session or another POST gets it — and the running-tasks limit is per principal. The task
 * methods need Mcp-Name equal to the task id and Mcp-Method equal to the method (-32020 otherwise).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { BOTH, openSession, sessionHeaders } from './support/http-helpers.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders, postModern } from './support/modern-wire.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef-b';
const CAROL = 'carol-token-0123456789abcdef';
const DECLARED = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
let srv: HttpServerHandle;
let ids = 0;

beforeAll(async () => {
  const mcp = new McpServer(
    { name: 'tasks-http', version: '1.0.0' },
    { tasks: { maxTasksPerPrincipal: 2, syncWindowMs: 0 } },
  );
  mcp.addTool(
    { name: 'hold', execution: { taskSupport: 'optional' } },
    (_args, ctx) => new Promise((_resolve, reject) => ctx.onAbort(() => reject(new Error('stopped')))),
  );
  srv = await serveHttp(mcp, { auth: bearerAuth({ tokens: [ALICE, BOB, CAROL] }) });
});

afterAll(async () => {
  await srv?.close();
});

/** A 2026-07-28 request with `token`: the answer's JSON-RPC message. */
async function modern(token: string, method: string, params: Record<string, unknown>) {
  const body = { jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: envelope(DECLARED) } };
  const headers: Record<string, string> = { ...modernHeaders(body), authorization: `Bearer ${token}` };
  if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
  return (await postModern(srv.url, body, headers)).message;
}

/** A 2025-11-25 session opened with `token`: a function sending one request in it. */
async function legacySession(token: string) {
  const auth = { authorization: `Bearer ${token}` };
  const session = await openSession(srv.url, auth);
  const headers = { 'content-type': 'application/json', accept: BOTH, ...auth, ...sessionHeaders(session) };
  return async (method: string, params: Record<string, unknown>) => {
    const body = { jsonrpc: '2.0', id: ++ids, method, params };
    return (await postModern(srv.url, body, headers)).message;
  };
}

describe('tasks over HTTP belong to the principal', () => {
  it('another principal gets "not found" for a task id, in both eras; the same principal anywhere gets the task', async () => {
    const made = (await modern(ALICE, 'tools/call', { name: 'hold', arguments: {} }))?.result as Record<
      string,
      unknown
    >;
    const taskId = made.taskId as string;
    expect(made).toMatchObject({ resultType: 'task', status: 'working' });
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      expect((await modern(BOB, method, params))?.error, method).toMatchObject({ code: -32602 });
    }
    // Alice's 2025 session (another connection, another era) sees it; Bob's does not, nor in tasks/list.
    const alice = await legacySession(ALICE);
    const bob = await legacySession(BOB);
    expect((await alice('tasks/get', { taskId }))?.result).toMatchObject({ taskId, status: 'working' });
    expect((await bob('tasks/get', { taskId }))?.error).toMatchObject({ code: -32602 });
    expect((await bob('tasks/result', { taskId }))?.error).toMatchObject({ code: -32602 });
    expect((await bob('tasks/list', {}))?.result).toEqual({ tasks: [] });
    const listed = (await alice('tasks/list', {}))?.result as { tasks: { taskId: string }[] } | undefined;
    expect(listed?.tasks.map((t) => t.taskId)).toEqual([taskId]);

    // The limit counts per principal: Alice may have two running; Bob is not held back by hers.
    expect((await alice('tools/call', { name: 'hold', arguments: {}, task: {} }))?.result).toHaveProperty(
      'task',
    );
    expect((await modern(ALICE, 'tools/call', { name: 'hold', arguments: {} }))?.error).toMatchObject({
      code: -32000,
    });
    expect((await bob('tools/call', { name: 'hold', arguments: {}, task: {} }))?.result).toHaveProperty(
      'task',
    );
    expect((await modern(ALICE, 'tasks/cancel', { taskId }))?.result).toMatchObject({
      resultType: 'complete',
    });
    expect((await modern(ALICE, 'tools/call', { name: 'hold', arguments: {} }))?.result).toMatchObject({
      resultType: 'task',
    });
  });
});

describe('the headers of the task methods over HTTP (2026-07-28)', () => {
  it('refuses tasks/get, tasks/update and tasks/cancel whose Mcp-Name is not the task id, or is missing, or whose Mcp-Method is another method (-32020, 400)', async () => {
    const made = (await modern(CAROL, 'tools/call', { name: 'hold', arguments: {} }))?.result;
    const taskId = (made as { taskId: string }).taskId;
    const other = (await modern(CAROL, 'tools/call', { name: 'hold', arguments: {} }))?.result;
    const otherId = (other as { taskId: string }).taskId;
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const body = { jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: envelope(DECLARED) } };
      const send = (changed: Record<string, string | undefined>) =>
        postModern(srv.url, body, {
          ...modernHeaders(body),
          authorization: `Bearer ${CAROL}`,
          'mcp-name': taskId,
          ...changed,
        });
      for (const [headers, wording] of [
        [{ 'mcp-name': otherId }, /Mcp-Name/],
        [{ 'mcp-name': undefined }, /Mcp-Name/],
        [{ 'mcp-method': method === 'tasks/get' ? 'tasks/cancel' : 'tasks/get' }, /Mcp-Method/],
      ] as const) {
        const answer = await send(headers);
        expect(answer.status, `${method} ${JSON.stringify(headers)}`).toBe(400);
        expect(answer.message?.error).toMatchObject({
          code: -32020,
          message: expect.stringMatching(wording),
        });
      }
      expect((await send({})).message?.result, method).toMatchObject({ resultType: 'complete' });
    }
    // Neither task was cancelled by a refused tasks/cancel: the other one still runs.
    expect((await modern(CAROL, 'tasks/get', { taskId: otherId }))?.result).toMatchObject({
      status: 'working',
    });
    expect((await modern(CAROL, 'tasks/cancel', { taskId: otherId }))?.result).toMatchObject({
      resultType: 'complete',
    });
  });
});
