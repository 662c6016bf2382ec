/** Pins the public surface of the built package. */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeOnlyExports } from '../../server/test/support/declared-exports.js';
import { documentedCodes, errorClasses, outsideBase } from '../../server/test/support/error-codes.js';

describe('public surface', () => {
  it('the main entry exports exactly the documented names', async () => {
    const main = await import('@entropic-mcp/redis');
    expect(Object.keys(main).sort()).toEqual([
      'DEFAULT_REDIS_TIMEOUT_MS',
      'RedisClock',
      'RedisError',
      'RedisEventStore',
      'RedisMessageRouter',
      'RedisRateLimitStore',
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

  it('every exported error extends RedisError, and each code is in docs/errors.md', async () => {
    const main = await import('@entropic-mcp/redis');
    expect(errorClasses(main)).toEqual([
      'RedisError',
      'RedisTimeoutError',
      'RedisUnavailableError',
      'RedisWriteRefusedError',
    ]);
    expect(outsideBase(main, main.RedisError)).toEqual([]);
    const codes = [
      new main.RedisUnavailableError('redis://127.0.0.1:1', new Error('m')).code,
      new main.RedisTimeoutError(1).code,
      new main.RedisWriteRefusedError('OOM command not allowed', undefined).code,
    ];
    expect(codes).toEqual(['REDIS_UNAVAILABLE', 'REDIS_TIMEOUT', 'REDIS_WRITE_REFUSED']);
    expect(documentedCodes('@entropic-mcp/redis')).toEqual(codes);
  });

  it('the main entry declares exactly these type-only names', async () => {
    const main = await import('@entropic-mcp/redis');
    const dts = fileURLToPath(new URL('../dist/index.d.ts', import.meta.url));
    expect(typeOnlyExports(dts, main)).toEqual([
      'RedisClockOptions',
      'RedisConnectOptions',
      'RedisEventStoreOptions',
      'RedisMessageRouterOptions',
      'RedisRateLimitStoreOptions',
      'RedisSharedState',
      'RedisSharedStateOptions',
      'RedisTaskStoreOptions',
    ]);
  });
});
