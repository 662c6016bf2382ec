/**
 * Rate-limit buckets shared by every process on one Redis (`RateLimitStore` of @entropic-mcp/server): one
 * Lua script refills and takes a token atomically on Redis's own clock (`TIME`), so processes whose wall
 * clocks disagree still share one bucket correctly. A bucket expires once it would be full again.
 * A failure (Redis refusing writes, a missed deadline) rejects: the server's limiter then fails open or
 * closed as configured, after waiting at most its `storeTimeoutMs`.
 */

import { createHash } from 'node:crypto';
import type { RateLimitStore, RateRule, RateVerdict } from '@entropic-mcp/server';
import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';
import { Keys } from './keys.js';

// KEYS[1] the bucket; ARGV rate (tokens a second), burst. Answers {allowed (0/1), ms until a token}.
const TAKE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1])
local at = tonumber(held[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate / 1000)
  at = now
end
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / rate) + 1000)
return { allowed, wait }
`;

export interface RedisRateLimitStoreOptions {
  /** Prefix of every key (default `emcp:`), as the other stores of one deployment use it. */
  readonly keyPrefix?: string;
}

type TakingRedis = Redis & {
  emcpRateTake(key: string, rate: number, burst: number): Promise<[number, number]>;
};

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: TakingRedis;
  readonly #keys: Keys;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    const scripted = redis as TakingRedis;
    if (typeof scripted.emcpRateTake !== 'function') {
      scripted.defineCommand('emcpRateTake', { numberOfKeys: 1, lua: TAKE_LUA });
    }
    this.#redis = scripted;
  }

  async take(key: string, rule: Required<RateRule>): Promise<RateVerdict> {
    // The caller's key may hold anything (a principal, a tool name): only its digest names the Redis key.
    const bucket = this.#keys.rateBucket(createHash('sha256').update(key).digest('base64url'));
    const [allowed, wait] = await withinDeadline(
      this.#redis,
      this.#redis.emcpRateTake(bucket, rule.rate, rule.burst),
    );
    return { allowed: allowed === 1, retryAfterMs: wait };
  }
}
