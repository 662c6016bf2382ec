/** Connecting: a clear error when Redis is absent, reconnection by itself when it comes back. */

import { describe, expect, it } from 'vitest';
import { connectRedis, RedisUnavailableError } from '../src/index.js';
import { freePort } from './support/ports.js';
import { startRedis } from './support/redis-server.js';

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
      for (let i = 0; i < 100 && answer === undefined; i++) {
        answer = await redis.ping().catch(() => undefined);
        if (answer === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(answer).toBe('PONG');
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });
});
