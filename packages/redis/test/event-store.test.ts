/** RedisEventStore against a real redis-server: the shared EventStore suite, then what only Redis adds. */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreSuite } from '../../server/test/support/event-store-suite.js';
import { connectRedis, RedisEventStore } from '../src/index.js';

let server: RedisProcess;
let redis: Redis;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedis();
  redis = await connectRedis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

eventStoreSuite('RedisEventStore', {
  make: (options) => new RedisEventStore(redis, { ...options, keyPrefix: `t${++prefixes}:` }),
});

describe('RedisEventStore on Redis', () => {
  it('bounds each stream and sets a time to live on it', async () => {
    const store = new RedisEventStore(redis, { keyPrefix: 'bound:', maxEventsPerStream: 3, ttlMs: 60_000 });
    for (let n = 0; n < 10; n++) await store.append('s1.0', `{"n":${n}}`);
    expect(await redis.xlen('bound:ev:s1.0')).toBe(3);
    const ttl = await redis.pttl('bound:ev:s1.0');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await redis.pttl('bound:evs:s1')).toBeGreaterThan(50_000);
    // Packed when complete, it still knows what was trimmed.
    await store.append('s1.0', '{"n":"last"}', { last: true });
    expect(await store.after('s1.0.6')).toBeUndefined();
    expect((await store.after('s1.0.8'))?.events.map((e) => e.id)).toEqual(['s1.0.9', 's1.0.10', 's1.0.11']);
  });

  it('never reads another prefix, and refuses ids that could name other keys', async () => {
    const mine = new RedisEventStore(redis, { keyPrefix: 'a:' });
    const theirs = new RedisEventStore(redis, { keyPrefix: 'b:' });
    const id = await theirs.append('victim.0', '{"secret":1}');
    await theirs.append('victim.0', '{"secret":2}');
    expect(await mine.after(id)).toBeUndefined();
    const hostile = [
      `b:ev:${id}`,
      `../b:ev:${id}`,
      `victim.0\r\n.1`,
      `*.1`,
      `victim.0 .1`,
      `{victim}.0.1`,
      `victim:0.1`,
      `${'x'.repeat(500)}.1`,
      `victim.0.-1`,
      `victim.0.1e3`,
      '.1',
      '',
    ];
    for (const value of hostile) expect(await theirs.after(value)).toBeUndefined();
    await expect(theirs.forget('*')).rejects.toThrow(/wants "<session>\."/);
    await expect(theirs.append('a b.0', 'x')).rejects.toThrow(/Unsafe id/);
  });

  it('numbers appends made without waiting in call order, on an auto-pipelined connection', async () => {
    const piped = await connectRedis(server.url, { autoPipelining: true });
    try {
      const store = new RedisEventStore(piped, { keyPrefix: 'piped:' });
      // More than one script call's worth (256 events), made without waiting.
      const made = Array.from({ length: 600 }, (_, n) => store.append(`s${n % 3}.0`, `{"n":${n}}`));
      const ids = await Promise.all(made);
      for (let s = 0; s < 3; s++) {
        const mine = ids.filter((_, n) => n % 3 === s).map((id) => Number(id.slice(id.lastIndexOf('.') + 1)));
        expect(mine).toEqual(Array.from({ length: 200 }, (_, k) => k + 1));
      }
      const replay = await store.after('s1.0.0');
      expect(replay?.events.map((e) => JSON.parse(e.data).n)).toEqual(
        Array.from({ length: 200 }, (_, k) => 3 * k + 1),
      );
      expect(await redis.smembers('piped:evs:s1')).toEqual(['s1.0']);
      // The last event packs the stream into one string kept for the retention window.
      const last = await store.append('s1.0', '{"n":"last"}', { last: true });
      expect(last).toBe('s1.0.201');
      expect(await redis.exists('piped:ev:s1.0')).toBe(0);
      expect(await redis.smembers('piped:evs:s1')).toEqual([]);
      expect(Number(await redis.pttl('piped:evc:s1.0'))).toBeGreaterThan(50_000);
      expect(Number(await redis.call('MEMORY', 'USAGE', 'piped:evc:s1.0'))).toBeLessThan(4096);
      const whole = await store.after('s1.0.0');
      expect(whole?.events.map((e) => JSON.parse(e.data).n)).toEqual([
        ...Array.from({ length: 200 }, (_, k) => 3 * k + 1),
        'last',
      ]);
      expect(whole?.events.at(-1)?.id).toBe(last);
      await store.delete('s2.0');
      expect(await redis.exists('piped:ev:s2.0')).toBe(0);
      expect(await redis.exists('piped:ev:s0.0')).toBe(1);
    } finally {
      piped.disconnect();
    }
  });

  it('fails every append of a batch Redis did not take, and keeps failing fast rather than hanging', async () => {
    const gone = await connectRedis(server.url, { autoPipelining: true });
    const store = new RedisEventStore(gone, { keyPrefix: 'gone:' });
    gone.disconnect();
    const first = await Promise.allSettled([store.append('g.0', 'a'), store.append('g.1', 'b')]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(store.append('g.0', 'c')).rejects.toThrow();
    expect(await redis.exists('gone:ev:g.0', 'gone:ev:g.1')).toBe(0);
  });

  it('numbers a stream on after a Redis restarted empty: no id given twice, and a resumption from the last one gets what came since', async () => {
    const own = await startRedis();
    const client = await connectRedis(own.url);
    try {
      const store = new RedisEventStore(client);
      const seq = (id: string) => Number(id.slice(id.lastIndexOf('.') + 1));
      let last = await store.append('s.g0', '');
      for (let n = 1; n <= 3; n++) last = await store.append('s.g0', `{"n":${n}}`, { previous: last });
      await own.kill(true);
      await own.restart(); // no persistence: every log is gone
      await waitFor(() => client.status === 'ready', 'the client to reconnect');
      const next = await store.append('s.g0', '{"n":4}', { previous: last });
      expect(seq(next)).toBe(seq(last) + 1);
      expect((await store.after(last))?.events.map((e) => e.data)).toEqual(['{"n":4}']);
    } finally {
      client.disconnect();
      await own.stop();
    }
  });

  it('refuses a bad prefix and bad bounds by name', () => {
    expect(() => new RedisEventStore(redis, { keyPrefix: 'no colon' })).toThrow(/prefix/);
    expect(() => new RedisEventStore(redis, { ttlMs: 0 })).toThrow(/ttlMs must be a positive integer/);
  });
});
