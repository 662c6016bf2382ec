/**
 * Redis stalling under a scale-out deployment (redis-server stopped with SIGSTOP: its sockets stay
 * open and nothing answers), through real parts: two `serve --redis --redis-timeout 1000` processes
 * behind HAProxy. What needs Redis fails with 503/-32000 naming the deadline instead of waiting for as
 * long as Redis is silent; sessions the processes hold and 2026-07-28 calls keep working; once Redis
 * answers again, everything is served without restarting serve.
 */

import { type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import { callTool, openLegacySession, rawRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { waitForValue } from '@entropic-mcp/test-kit/wait';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from './support/serve-helpers.js';

let cluster: ScaleCluster;
let nextId = 1;
/** Each request's time limit while Redis is stopped: the 1 s deadline, on a loaded machine. */
const BOUND_MS = 10_000;

beforeAll(async () => {
  cluster = await startScaleCluster(2, { args: ['--redis-timeout', '1000'] });
}, 120_000);

afterAll(async () => {
  cluster?.redis.resume();
  await cluster?.stop();
});

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const unavailable = expect.objectContaining({
  error: expect.objectContaining({
    code: -32000,
    message: 'Service Unavailable: shared session state is unreachable (Redis did not answer within 1000 ms)',
  }),
});

/** The processes (X-Served-By) that answered a call of `session`, each with its status; four calls. */
async function callsOf(session: string): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (let i = 0; i < 4; i++) {
    const answer = await callTool(cluster.endpoint, session, nextId++, 'scale.pid', {}, {}, BOUND_MS);
    const ok = answer.status === 200 && /^\d+:/.test(textOf(answer.message?.result as never));
    seen[String(answer.headers['x-served-by'])] = ok ? 200 : answer.status;
  }
  return seen;
}

describe('serve --redis behind HAProxy: Redis stalls (SIGSTOP)', () => {
  it('answers 503/-32000 within the deadline where Redis is needed, keeps held sessions and modern calls working, and recovers', async () => {
    const held = await openLegacySession(cluster.endpoint);
    expect(await callsOf(held)).toEqual({ node0: 200, node1: 200 }); // both processes hold a copy
    const modern = new Client(
      { name: 'scale-stall', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(new URL(cluster.endpoint)));
    cluster.redis.pause();
    try {
      for (let i = 0; i < 2; i++) {
        const init = await rawRequest(cluster.endpoint, 'POST', INIT, undefined, {}, BOUND_MS);
        expect({ status: init.status, body: JSON.parse(init.body) }).toEqual({
          status: 503,
          body: unavailable,
        });
      }
      const stranger = await callTool(
        cluster.endpoint,
        crypto.randomUUID(),
        nextId++,
        'scale.pid',
        {},
        {},
        BOUND_MS,
      );
      expect({ status: stranger.status, body: stranger.message }).toEqual({ status: 503, body: unavailable });
      const resumed = await rawRequest(
        cluster.endpoint,
        'GET',
        undefined,
        held,
        { accept: 'text/event-stream', 'last-event-id': `${held}.x-g0.1` },
        BOUND_MS,
      );
      expect({ status: resumed.status, body: JSON.parse(resumed.body) }).toEqual({
        status: 503,
        body: unavailable,
      });
      const del = await rawRequest(cluster.endpoint, 'DELETE', undefined, held, {}, BOUND_MS);
      expect({ status: del.status, body: JSON.parse(del.body) }).toEqual({ status: 503, body: unavailable });

      // What needs no Redis goes on: calls in the held session on both processes, 2026-07-28 calls.
      expect(await callsOf(held)).toEqual({ node0: 200, node1: 200 });
      const served = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const result = await modern.callTool({ name: 'scale.pid', arguments: {} }, { timeout: BOUND_MS });
        served.add(textOf(result).split(':')[0] as string);
      }
      expect(served.size).toBe(2);
    } finally {
      cluster.redis.resume();
      await modern.close();
    }
    // Redis answers again: new sessions, the held one, DELETE, all without restarting serve.
    const fresh = await waitForValue(
      () => openLegacySession(cluster.endpoint).catch(() => undefined),
      'a new session within 30 s of Redis answering again',
      30_000,
    );
    expect(await callsOf(fresh)).toEqual({ node0: 200, node1: 200 });
    expect(await callsOf(held)).toEqual({ node0: 200, node1: 200 });
    expect((await rawRequest(cluster.endpoint, 'DELETE', undefined, held)).status).toBe(200);
  });
});
