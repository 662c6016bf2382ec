/**
 * Hostile ids against the Redis-backed handler (no key is read or made from them, nothing of another
 * session is replayed), and Redis going away mid-run (a clear JSON-RPC error, then service again).
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INIT_BODY, post } from '../../server/test/support/http-helpers.js';
import { type Fixture, startFixture } from '../../server/test/support/http-interop-fixture.js';
import { connectRedis, createRedisSharedState, type RedisSharedState } from '../src/index.js';

let redis: RedisProcess;
let inspect: Redis;
const states: RedisSharedState[] = [];
const fx: Fixture[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = await connectRedis(redis.url);
  for (const nodeId of ['a', 'b']) {
    const state = await createRedisSharedState(redis.url, { nodeId, keyPrefix: 'f:' });
    states.push(state);
    fx.push(await startFixture({ sharedSessions: state, eventStore: state.eventStore }));
  }
});

afterAll(async () => {
  for (const f of fx) await f.close();
  for (const s of states) await s.close();
  inspect?.disconnect();
  await redis?.stop();
});

const headersFor = (session: string) => ({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function openSession(url: string): Promise<string> {
  const res = await post(url, INIT_BODY);
  await res.text();
  return res.headers.get('mcp-session-id') as string;
}

describe('hostile ids', () => {
  it('answer 404 and neither read nor make a key', async () => {
    const [a, b] = fx as [Fixture, Fixture];
    const victim = await openSession(a.url);
    const before = (await inspect.keys('*')).sort();
    expect(before).toContain(`f:sess:${victim}`);
    const hostile = ['*', `f:sess:${victim}`, `${victim}*`, '../sess', `{${victim}}`, 'x'.repeat(300)];
    for (const id of hostile) {
      const res = await post(b.url, LIST, headersFor(id));
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      await res.text();
    }
    expect((await inspect.keys('*')).sort()).toEqual(before);
  });

  it('a Last-Event-ID of another session replays none of its events', async () => {
    const [a, b] = fx as [Fixture, Fixture];
    const victim = await openSession(a.url);
    const stream = `${victim}.a-g0`;
    await states[0]?.eventStore.append(stream, '');
    const secret = await states[0]?.eventStore.append(stream, '{"jsonrpc":"2.0","method":"secret"}');
    const attacker = await openSession(b.url);
    const stop = new AbortController();
    const res = await fetch(b.url, {
      headers: { ...headersFor(attacker), accept: 'text/event-stream', 'last-event-id': `${victim}.a-g0.1` },
      signal: stop.signal,
    });
    expect(res.status).toBe(200); // a fresh stream of the attacker's own session
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // Whatever the stream starts with in half a second (nothing, or the attacker's own events): never the secret.
    const first = await Promise.race([reader.read(), quietPeriod(500).then(() => undefined)]);
    stop.abort();
    expect(JSON.stringify(first ?? '')).not.toContain('secret');
    expect(secret).toMatch(/\.2$/);
  });
});

describe('Redis lost mid-run', () => {
  it('answers 503 with a clear JSON-RPC error, then serves again once Redis is back', async () => {
    const [a, b] = fx as [Fixture, Fixture];
    const session = await openSession(a.url);
    await redis.kill(true);
    const down = await post(b.url, LIST, headersFor(session));
    expect(down.status).toBe(503);
    const body = (await down.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(/shared session state is unreachable/);
    await redis.restart();
    // Both processes reconnect by themselves: a session opened on b is soon served by a again.
    let status = 0;
    await waitFor(async () => {
      const init = await post(b.url, INIT_BODY);
      await init.text();
      const fresh = init.headers.get('mcp-session-id');
      if (init.status === 200 && fresh !== null) {
        const served = await post(a.url, LIST, headersFor(fresh));
        status = served.status;
        await served.text();
      }
      return status === 200;
    }, 'a session opened on b to be served by a');
    expect(status).toBe(200);
  });
});
