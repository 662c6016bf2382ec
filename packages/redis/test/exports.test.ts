/** Pins the public surface of the built package. */

import { describe, expect, it } from 'vitest';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/redis');
    expect(Object.keys(main).sort()).toEqual([
      'DEFAULT_REDIS_TIMEOUT_MS',
      'RedisEventStore',
      'RedisMessageRouter',
      'RedisSessionRegistry',
      'RedisSubscriptionBus',
      'RedisTaskStore',
      'RedisTimeoutError',
      'RedisUnavailableError',
      'connectRedis',
      'createRedisSharedState',
    ]);
  });
});
