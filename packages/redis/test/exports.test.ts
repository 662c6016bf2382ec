/** Pins the public surface of the built package. */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/redis');
    expect(Object.keys(main).sort()).toEqual([
      'DEFAULT_REDIS_TIMEOUT_MS',
      'RedisClock',
      'RedisEventStore',
      'RedisMessageRouter',
      'RedisSessionRegistry',
      'RedisSubscriptionBus',
      'RedisTaskStore',
      'RedisTimeoutError',
      'RedisUnavailableError',
      'RedisWriteRefusedError',
      'connectRedis',
      'createRedisSharedState',
    ]);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/redis');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'RedisClockOptions',
      'RedisConnectOptions',
      'RedisEventStoreOptions',
      'RedisMessageRouterOptions',
      'RedisSharedState',
      'RedisSharedStateOptions',
      'RedisTaskStoreOptions',
    ]);
  });
});
