/**
 * The shared rate-limit store on a real redis-server: one bucket for every process, on Redis's clock (a
 * process whose clock runs 10 minutes ahead under faketime takes from the same bucket and refills nothing),
 * and what a server does when Redis refuses writes (maxmemory 1, noeviction) or stalls (SIGSTOP): fail open
 * serves, fail closed answers 503 naming the cause, and no request waits past the limiter's bound.
 */

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { faketimeEnv } from '@entropic-mcp/test-kit/faketime';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { refuseWrites } from '@entropic-mcp/test-kit/refuse-writes';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerHandle, serveHttp } from '../../server/src/http/index.js';
import { McpServer, type RateLimitOptions } from '../../server/src/index.js';
import { INIT_BODY, post } from '../../server/test/support/http-helpers.js';
import { connectRedis, RedisRateLimitStore } from '../src/index.js';

const run = promisify(execFile);
const TAKE = fileURLToPath(new URL('./fixtures/rate/take.mjs', import.meta.url));

let redis: RedisProcess;
let client: Redis;
const servers: HttpServerHandle[] = [];

beforeAll(async () => {
  redis = await startRedis();
  client = await connectRedis(redis.url, { timeoutMs: 1000 });
});
afterEach(async () => {
  redis.resume();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  client.disconnect();
  await redis.stop();
});

/** One take in a process of its own whose wall clock is moved by `offset`. */
async function takeElsewhere(offset: string, key: string, rate: number, burst: number) {
  const { stdout } = await run(process.execPath, [TAKE, redis.url, key, String(rate), String(burst)], {
    env: { ...process.env, ...faketimeEnv(offset) },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { allowed: boolean; retryAfterMs: number; wallClock: number };
}

describe('RedisRateLimitStore', () => {
  it('two processes share one bucket; one with its clock 10 minutes ahead refills nothing', async () => {
    const store = new RedisRateLimitStore(client);
    const rule = { rate: 0.01, burst: 2 }; // one token every 100 s
    const key = `skew-${Math.random()}`;
    expect((await store.take(key, rule)).allowed).toBe(true);
    const ahead = await takeElsewhere('+10m', key, rule.rate, rule.burst);
    expect(ahead.wallClock - Date.now()).toBeGreaterThan(9 * 60_000); // the clock really is ahead
    expect(ahead.allowed).toBe(true);
    // The bucket is empty for both: the process ahead sees no ten minutes of refill.
    const again = await takeElsewhere('+10m', key, rule.rate, rule.burst);
    expect(again).toMatchObject({ allowed: false });
    expect(again.retryAfterMs).toBeGreaterThan(30_000);
    expect(await store.take(key, rule)).toMatchObject({ allowed: false });
  });

  it('refills on Redis time and keeps a bucket per key', async () => {
    const store = new RedisRateLimitStore(client, { keyPrefix: 'rl-test:' });
    const rule = { rate: 1, burst: 1 };
    expect((await store.take('a', rule)).allowed).toBe(true);
    const refused = await store.take('a', rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
    expect((await store.take('b', rule)).allowed).toBe(true);
    await waitFor(async () => (await store.take('a', rule)).allowed, 10_000, 'the bucket to refill');
    const [key] = await client.keys('rl-test:rate:*');
    expect(key).toMatch(/^rl-test:rate:[A-Za-z0-9_-]{43}$/);
    expect(await client.pttl(key as string)).toBeGreaterThan(0);
  });
});

async function serve(rateLimits: RateLimitOptions): Promise<{ url: string; errors: unknown[] }> {
  const errors: unknown[] = [];
  const mcp = new McpServer(
    { name: 'rl', version: '1' },
    { rateLimits: { ...rateLimits, onError: (e) => errors.push(e) } },
  );
  mcp.addTool({ name: 'echo' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const handle = await serveHttp(mcp, { host: '127.0.0.1', port: 0, allowedHosts: ['127.0.0.1'] });
  servers.push(handle);
  return { url: handle.url, errors };
}

describe('a server whose rate limits live in a Redis that fails', () => {
  for (const onStoreFailure of ['open', 'closed'] as const) {
    it(`refused writes (maxmemory 1, noeviction): fail ${onStoreFailure}`, async () => {
      const { url, errors } = await serve({
        default: { rate: 100 },
        store: new RedisRateLimitStore(client),
        onStoreFailure,
      });
      const refusal = await refuseWrites(redis, 'OOM');
      try {
        const res = await post(url, INIT_BODY);
        const body = await res.text();
        if (onStoreFailure === 'open') {
          expect(res.status).toBe(200);
        } else {
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('5');
          expect(JSON.parse(body)).toMatchObject({
            id: 0,
            error: {
              code: -32000,
              message: expect.stringMatching(
                /rate-limit store could not be used \(Redis refused the write: OOM command not allowed/,
              ),
            },
          });
        }
        expect(String(errors[0])).toMatch(/OOM command not allowed/);
      } finally {
        await refusal.end();
      }
    });

    it(`a stalled Redis (SIGSTOP) answers within the bound: fail ${onStoreFailure}`, async () => {
      const stalled = await connectRedis(redis.url, { timeoutMs: 60_000 });
      const { url, errors } = await serve({
        default: { rate: 100 },
        store: new RedisRateLimitStore(stalled),
        onStoreFailure,
        storeTimeoutMs: 300,
      });
      redis.pause();
      try {
        const res = await post(url, INIT_BODY);
        await res.text();
        expect(res.status).toBe(onStoreFailure === 'open' ? 200 : 503);
        expect(String(errors[0])).toMatch(/did not answer within 300 ms/);
      } finally {
        redis.resume();
        stalled.disconnect();
      }
    });
  }
});
