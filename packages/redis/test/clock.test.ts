/**
 * RedisClock on a real redis-server whose clock is this machine's: the skew it measures is the
 * measurement's error only, so nothing is reported and `now()` is this process's own clock (within the
 * threshold no correction is applied: processes on one machine keep sharing one clock exactly). The
 * skewed cases (processes 10 minutes off under libfaketime) are `packages/serve/test/scale-skew.test.ts`.
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, RedisClock } from '../src/index.js';

let server: RedisProcess;
let redis: Awaited<ReturnType<typeof connectRedis>>;

beforeAll(async () => {
  server = await startRedis();
  redis = await connectRedis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

describe('RedisClock', () => {
  it("keeps this process's clock while it agrees with Redis's, and reports nothing", async () => {
    const told: string[] = [];
    const clock = new RedisClock(redis, { onSkew: (message) => told.push(message) });
    await clock.start();
    try {
      expect(Math.abs(clock.skewMs)).toBeLessThan(1000);
      const before = Date.now();
      const now = clock.now();
      expect(now - before).toBeGreaterThanOrEqual(0);
      expect(now - Date.now()).toBeLessThanOrEqual(0);
      expect(told).toEqual([]);
    } finally {
      clock.stop();
    }
  });

  it('refuses options that are not positive integers (ms)', () => {
    expect(() => new RedisClock(redis, { intervalMs: 10 })).toThrow(/intervalMs/);
    expect(() => new RedisClock(redis, { warnAboveMs: 0 })).toThrow(/warnAboveMs/);
  });
});
