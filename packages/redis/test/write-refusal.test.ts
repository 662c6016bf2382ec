/**
 * A Redis that answers reads and refuses writes (out of memory, or a read-only replica behind the
 * address): two processes' worth of handlers share it. No session or task is acknowledged unless its
 * write succeeded: a new session is refused with 503, Retry-After and the Redis error by name; a task
 * is refused the same way; a session a process holds keeps working there; no live process is taken for
 * gone because its liveness key could not be written; the log names the refusal.
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import {
  REFUSAL_TEXT,
  type Refusal,
  refuseWrites,
  type WriteRefusal,
} from '@entropic-mcp/test-kit/refuse-writes';
import { holdFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerHandle, serveHttp } from '../../server/src/http/index.js';
import { McpServer } from '../../server/src/index.js';
import { INIT_BODY, post } from '../../server/test/support/http-helpers.js';
import { connectRedis, createRedisSharedState, type RedisSharedState } from '../src/index.js';

const NODE_TTL_MS = 1000;
const MODERN = '2026-07-28';

interface Node {
  readonly state: RedisSharedState;
  readonly http: HttpServerHandle;
  readonly errors: string[];
}

let redis: RedisProcess;
let inspect: Redis;
const nodes: Node[] = [];
let refusal: WriteRefusal | undefined;

function mcpServer(state: RedisSharedState): McpServer {
  const mcp = new McpServer(
    { name: 'write-refusal', version: '1.0.0' },
    { tasks: { store: state.taskStore, syncWindowMs: 0 }, clock: state.now },
  );
  mcp.addTool({ name: 'echo' }, (args) => ({ content: [{ type: 'text', text: String(args.text) }] }));
  mcp.addTool({ name: 'slow', execution: { taskSupport: 'optional' } }, async () => {
    await holdFor(200); // a tool that is slow on purpose
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  return mcp;
}

beforeAll(async () => {
  redis = await startRedis();
  inspect = await connectRedis(redis.url);
  for (const nodeId of ['a', 'b']) {
    const state = await createRedisSharedState(redis.url, {
      nodeId,
      keyPrefix: 'w:',
      nodeTtlMs: NODE_TTL_MS,
    });
    const errors: string[] = [];
    const http = await serveHttp(mcpServer(state), {
      sharedSessions: state,
      eventStore: state.eventStore,
      onError: (error) => errors.push(error.message),
    });
    nodes.push({ state, http, errors });
  }
});

afterEach(async () => {
  await refusal?.end();
  refusal = undefined;
});

afterAll(async () => {
  for (const node of nodes) {
    await node.http.close();
    await node.state.close();
  }
  inspect?.disconnect();
  await redis?.stop();
});

const [a, b] = [() => nodes[0] as Node, () => nodes[1] as Node];
const legacy = (session: string) => ({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });

async function openSession(url: string): Promise<string> {
  const res = await post(url, INIT_BODY);
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id') as string;
}

/** The last JSON-RPC message of a JSON or SSE body. */
function messageOf(body: string): { result?: unknown; error?: { code: number; message: string } } {
  const texts = body.trimStart().startsWith('{')
    ? [body]
    : body
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.length > 6)
        .map((l) => l.slice(5));
  return JSON.parse(texts.at(-1) ?? '{}');
}

async function echo(url: string, session: string, text: string) {
  const res = await post(
    url,
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text } } },
    legacy(session),
  );
  return { status: res.status, message: messageOf(await res.text()) };
}

function modernCall(url: string, id: number, name: string) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  return post(
    url,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: meta } },
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
  );
}

describe.each(['OOM', 'READONLY'] as const)('Redis refusing writes (%s)', (kind: Refusal) => {
  it('a new session is refused with 503, Retry-After and the Redis error; none is acknowledged unstored', async () => {
    refusal = await refuseWrites(redis, kind);
    for (let i = 0; i < 6; i++) {
      const res = await post(a().http.url, INIT_BODY);
      const body = await res.text();
      const session = res.headers.get('mcp-session-id');
      if (res.status === 200 && session !== null) {
        // Acknowledged: the other process must be able to serve it.
        const used = await echo(b().http.url, session, 'x');
        expect.fail(
          `initialize was answered 200, and the session then got ${used.status} on another process`,
        );
      }
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const error = JSON.parse(body).error as { code: number; message: string };
      expect(error.code).toBe(-32000);
      expect(error.message).toMatch(/^Service Unavailable: shared session state cannot be written \(/);
      expect(error.message).toMatch(REFUSAL_TEXT[kind]);
    }
    // The log names the refusal, not the transaction it aborted.
    expect(a().errors.some((line) => REFUSAL_TEXT[kind].test(line))).toBe(true);
    expect(a().errors.filter((line) => /EXECABORT/.test(line))).toEqual([]);
  });

  it('a session a process holds keeps working there', async () => {
    const session = await openSession(a().http.url);
    refusal = await refuseWrites(redis, kind);
    for (let i = 0; i < 3; i++) {
      const answer = await echo(a().http.url, session, `held-${i}`);
      expect(answer.status).toBe(200);
      expect(answer.message.result).toMatchObject({ content: [{ type: 'text', text: `held-${i}` }] });
    }
  });

  it('a task is refused with 503, Retry-After and the Redis error, never acknowledged unstored', async () => {
    refusal = await refuseWrites(redis, kind);
    const res = await modernCall(a().http.url, 11, 'slow');
    const body = await res.text();
    expect(res.status, body).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const error = messageOf(body).error;
    expect(error?.code).toBe(-32000);
    expect(error?.message).toMatch(/^Service Unavailable: the task could not be stored \(/);
    expect(error?.message).toMatch(REFUSAL_TEXT[kind]);
  });

  it('a process whose liveness key cannot be written is not taken for gone', async () => {
    refusal = await refuseWrites(redis, kind);
    // Past the liveness key's time to live: every process's key is gone or going.
    await holdFor(NODE_TTL_MS + 200); // the fault held open past the keys' time to live (Redis's own clock)
    const gone = await b()
      .state.router.isGone?.('a')
      .catch(() => false);
    expect(gone).toBe(false);
  });
});

describe('Redis taking writes again', () => {
  it('sessions and tasks are stored and served everywhere', async () => {
    const session = await openSession(a().http.url);
    const answer = await echo(b().http.url, session, 'after');
    expect(answer.message.result).toMatchObject({ content: [{ text: 'after' }] });
    const res = await modernCall(b().http.url, 12, 'slow');
    expect(res.status).toBe(200);
    expect(messageOf(await res.text()).result).toMatchObject({ resultType: 'task' });
    expect(await inspect.exists(`w:sess:${session}`)).toBe(1);
  });
});
