/**
 * Connecting: a clear error when Redis is absent, reconnection by itself when it comes back, and a
 * deadline on every wait when Redis stalls (SIGSTOP: the sockets stay open, nothing answers).
 */

import { freePort } from '@entropic-mcp/test-kit/ports';
import { startRedis } from '@entropic-mcp/test-kit/redis-server';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it, vi } from 'vitest';
import {
  connectRedis,
  createRedisSharedState,
  RedisTimeoutError,
  RedisUnavailableError,
} from '../src/index.js';

describe('connectRedis', () => {
  it('names the URL (without its password) and the reason when nothing listens', async () => {
    const port = await freePort();
    const attempt = connectRedis(`redis://user:hunter2@127.0.0.1:${port}`, { connectTimeoutMs: 2000 });
    await expect(attempt).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(attempt).rejects.toThrow(
      new RegExp(`Redis at redis://user:\\*\\*\\*@127.0.0.1:${port} is not reachable: .*ECONNREFUSED`),
    );
  });

  it('refuses a URL that is not redis://', async () => {
    await expect(connectRedis('http://127.0.0.1:6379')).rejects.toThrow(/starts with redis:\/\//);
  });

  it('fails commands at once while Redis is away, and reconnects by itself', async () => {
    const server = await startRedis();
    const redis = await connectRedis(server.url);
    try {
      await redis.set('k', 'v');
      await server.kill(true);
      await expect(redis.get('k')).rejects.toThrow();
      await server.restart();
      let answer: string | null | undefined;
      await waitFor(async () => {
        answer = await redis.ping().catch(() => undefined);
        return answer !== undefined;
      }, 'the client to reconnect');
      expect(answer).toBe('PONG');
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });
});

describe('a Redis that stalls (SIGSTOP)', () => {
  it('fails every wait within the deadline, naming it, and answers again once Redis does', async () => {
    const server = await startRedis();
    const errors: Error[] = [];
    const options = { timeoutMs: 400, connectTimeoutMs: 400, keyPrefix: 'stall:' };
    // Connected with a long deadline while Redis runs: on a loaded machine its first answer may take longer than
    // 400 ms. The deadlines under test are those met once it is stopped.
    const connecting = { ...options, connectTimeoutMs: 30_000 };
    const shared = await createRedisSharedState(server.url, {
      ...connecting,
      onError: (e) => errors.push(e),
    });
    const redis = await connectRedis(server.url, connecting);
    try {
      server.pause();
      const started = Date.now();
      const waits = {
        command: redis.get('k'),
        load: shared.registry.load('s1'),
        touch: shared.registry.touch('s1', 60_000),
        publish: shared.router.publish('s1', { kind: 'out', from: 'x' }),
        append: shared.eventStore.append('s1.0', '{"n":1}'),
        replay: shared.eventStore.after('s1.0.1'),
        listen: shared.subscriptionBus.publish({ kind: 'tools' } as never),
      };
      const settled = await Promise.allSettled(Object.values(waits));
      const elapsed = Date.now() - started;
      const reasons = settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'answered'));
      // ioredis's own words on a bare connection; this package's waits name the deadline.
      expect(reasons).toEqual(
        Object.keys(waits).map((name) =>
          name === 'command'
            ? 'Error: Command timed out'
            : 'RedisTimeoutError: Redis did not answer within 400 ms',
        ),
      );
      expect(elapsed).toBeLessThan(5_000); // 400 ms, on a loaded machine
      expect((settled[4] as PromiseRejectedResult).reason).toBeInstanceOf(RedisTimeoutError);
      // Once an append missed its deadline, the next ones fail at once instead of waiting again.
      const quick = Date.now();
      await expect(shared.eventStore.append('s1.0', '{"n":2}')).rejects.toThrow(/within 400 ms/);
      expect(Date.now() - quick).toBeLessThan(300);
      // A subscription asked for meanwhile fails within the deadline too, through onError.
      const stop = shared.router.subscribe('s2', () => {});
      await vi.waitFor(
        () => expect(errors.map(String)).toContain('RedisTimeoutError: Redis did not answer within 400 ms'),
        { timeout: 5_000 },
      );
      stop();
      // A new connection to the stalled server gives up within its connect deadline.
      await expect(connectRedis(server.url, options)).rejects.toThrow(/is not reachable: .*400 ms/);
      await expect(createRedisSharedState(server.url, options)).rejects.toBeInstanceOf(RedisUnavailableError);

      server.resume();
      expect(await redis.ping()).toBe('PONG');
      await vi.waitFor(
        async () => expect(await shared.eventStore.append('s1.0', '{"n":3}')).toMatch(/^s1\.0\./),
        {
          timeout: 5_000,
        },
      );
    } finally {
      server.resume();
      redis.disconnect();
      await shared.close();
      await server.stop();
    }
  }, 30_000);
});
