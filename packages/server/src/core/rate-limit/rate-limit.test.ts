// Rate limits in the core, on an injected clock: token buckets per caller and per tool, the -32029 answer,
// a store that stalls or fails (open or closed), and a batch whose requests are counted one by one.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';
import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitOptions, RateLimitStore } from './types.js';

function limited(rateLimits: RateLimitOptions, clock?: () => number) {
  const server = new McpServer({ name: 'r', version: '1' }, { rateLimits, clock });
  server.addTool({ name: 'echo' }, async () => ({ content: [text('ok')] }));
  server.addTool({ name: 'other' }, async () => ({ content: [text('ok')] }));
  return server;
}

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const call = (name: string) => ({ name, arguments: {} });

describe('rate limits', () => {
  it('refuses the call over the bucket with -32029 naming the limit and the wait, and refills on the clock', async () => {
    const clock = fakeClock();
    const server = limited({ tools: { echo: { rate: 1, burst: 2 } } }, clock.now);
    const { peer } = await initializedPeer(server);
    expect((await peer.request('tools/call', call('echo'))).result).toBeDefined();
    expect((await peer.request('tools/call', call('echo'))).result).toBeDefined();
    const refused = await peer.request('tools/call', call('echo'));
    expect(refused.error).toMatchObject({
      code: -32029,
      message: expect.stringMatching(/tool "echo" allows 1 a second \(burst 2\).*retry in 1000 ms/),
      data: { retryAfterMs: 1000, limit: { rate: 1, burst: 2 } },
    });
    clock.advance(400);
    expect((await peer.request('tools/call', call('echo'))).error).toMatchObject({
      data: { retryAfterMs: 600 },
    });
    // Another tool has no rule: not limited.
    expect((await peer.request('tools/call', call('other'))).result).toBeDefined();
    clock.advance(600);
    expect((await peer.request('tools/call', call('echo'))).result).toBeDefined();
    await server.close();
  });

  it('keeps a bucket per caller: one connection over its limit leaves another served', async () => {
    const clock = fakeClock();
    const server = limited({ default: { rate: 2 } }, clock.now);
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    // initialize took one token of each caller's default bucket.
    expect((await a.peer.request('tools/call', call('echo'))).result).toBeDefined();
    expect((await a.peer.request('tools/list')).error).toMatchObject({ code: -32029 });
    expect((await b.peer.request('tools/call', call('other'))).result).toBeDefined();
    await server.close();
  });

  it('takes from the most specific bucket only: tool, else method, else default', async () => {
    const clock = fakeClock();
    const server = limited(
      {
        default: { rate: 1, burst: 1 },
        methods: { 'tools/list': { rate: 1, burst: 3 } },
        tools: { echo: { rate: 5 } },
      },
      clock.now,
    );
    const { peer } = await initializedPeer(server); // the default's one token
    for (let i = 0; i < 5; i++) expect((await peer.request('tools/call', call('echo'))).result).toBeDefined();
    expect((await peer.request('tools/call', call('echo'))).error).toMatchObject({ code: -32029 });
    for (let i = 0; i < 3; i++) expect((await peer.request('tools/list')).result).toBeDefined();
    expect((await peer.request('tools/list')).error).toMatchObject({ code: -32029 });
    expect((await peer.request('tools/call', call('other'))).error).toMatchObject({
      message: expect.stringContaining('requests allows 1 a second'),
    });
    await server.close();
  });

  it('a key function decides the caller; undefined leaves the request unlimited', async () => {
    const shared = limited({ methods: { ping: { rate: 1, burst: 1 } }, key: () => 'everyone' });
    const a = await initializedPeer(shared);
    const b = await initializedPeer(shared);
    expect((await a.peer.request('ping')).result).toBeDefined();
    expect((await b.peer.request('ping')).error).toMatchObject({ code: -32029 });
    await shared.close();
    const free = limited({ methods: { ping: { rate: 1, burst: 1 } }, key: () => undefined });
    const c = await initializedPeer(free);
    for (let i = 0; i < 3; i++) expect((await c.peer.request('ping')).result).toBeDefined();
    await free.close();
  });

  it('counts each request of a 2025-03-26 batch', async () => {
    const clock = fakeClock();
    const server = limited({ tools: { echo: { rate: 1, burst: 1 } } }, clock.now);
    const { peer } = await initializedPeer(server, {}, '2025-03-26');
    await peer.handle.send([
      { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: call('echo') },
      { jsonrpc: '2.0', id: 'y', method: 'tools/call', params: call('echo') },
    ]);
    const answers = (await peer.waitFor((m) => Array.isArray(m))) as unknown as Record<string, unknown>[];
    const byId = Object.fromEntries(answers.map((m) => [m.id, m]));
    expect(byId.x?.result).toBeDefined();
    expect(byId.y?.error).toMatchObject({ code: -32029, data: { retryAfterMs: 1000 } });
    await server.close();
  });

  it('a store that never answers is bounded: open serves the request, closed answers unavailable', async () => {
    const stalled: RateLimitStore = { take: () => new Promise(() => {}) };
    const errors: unknown[] = [];
    for (const onStoreFailure of ['open', 'closed'] as const) {
      const server = limited({
        default: { rate: 1 },
        store: stalled,
        storeTimeoutMs: 50,
        onStoreFailure,
        onError: (e) => errors.push(e),
      });
      const { peer } = await initializedPeer(server).catch((e) => ({ peer: undefined, e }));
      // initialize itself is limited: open lets it through, closed refuses it.
      if (onStoreFailure === 'open') {
        expect((await peer?.request('tools/call', call('echo')))?.result).toBeDefined();
      } else {
        expect(peer).toBeUndefined();
      }
      await server.close();
    }
    expect(String(errors[0])).toMatch(/did not answer within 50 ms/);
  });

  it('a store that throws fails closed with -32000 and data.retryAfter', async () => {
    const server = limited({
      methods: { 'tools/call': { rate: 1 } },
      onStoreFailure: 'closed',
      store: {
        take: () => {
          throw new Error('OOM command not allowed');
        },
      },
    });
    const { peer } = await initializedPeer(server);
    const answer = await peer.request('tools/call', call('echo'));
    expect(answer.error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/rate-limit store could not be used \(OOM command not allowed\)/),
      data: { retryAfter: 5 },
    });
    await server.close();
  });

  it('refuses bad rules with a clear TypeError', () => {
    expect(() => limited({ default: { rate: 0 } })).toThrow(/rateLimits.default.rate must be a number/);
    expect(() => limited({ tools: { echo: { rate: 1, burst: 0.5 } } })).toThrow(
      /rateLimits.tools.echo.burst must be a positive integer/,
    );
    expect(() => limited({ onStoreFailure: 'maybe' as 'open' })).toThrow(/onStoreFailure/);
  });
});

describe('MemoryRateLimitStore', () => {
  it('forgets buckets that refilled completely', () => {
    const clock = fakeClock();
    const store = new MemoryRateLimitStore({ clock: clock.now });
    const rule = { rate: 10, burst: 10 };
    for (let i = 0; i < 4095; i++) store.take(`k${i}`, rule);
    expect(store.size).toBe(4095);
    clock.advance(100);
    store.take('last', rule);
    expect(store.size).toBe(1);
  });

  it('a clock that goes back refills nothing', () => {
    const clock = fakeClock();
    const store = new MemoryRateLimitStore({ clock: clock.now });
    const rule = { rate: 1, burst: 1 };
    expect(store.take('k', rule).allowed).toBe(true);
    clock.advance(-60_000);
    expect(store.take('k', rule)).toEqual({ allowed: false, retryAfterMs: 1000 });
  });
});
