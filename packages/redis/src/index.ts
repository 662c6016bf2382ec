/** `@entropic-mcp/redis`: shared state for @entropic-mcp/server on Redis. */

export type { RedisClockOptions } from './clock.js';
export { RedisClock } from './clock.js';
export type { RedisConnectOptions } from './connect.js';
export {
  connectRedis,
  DEFAULT_REDIS_TIMEOUT_MS,
  RedisTimeoutError,
  RedisUnavailableError,
  RedisWriteRefusedError,
} from './connect.js';
export { RedisError } from './errors.js';
export type { RedisEventStoreOptions } from './event-store.js';
export { RedisEventStore } from './event-store.js';
export type { RedisMessageRouterOptions } from './message-router.js';
export { RedisMessageRouter } from './message-router.js';
export type { RedisRateLimitStoreOptions } from './rate-limit-store.js';
export { RedisRateLimitStore } from './rate-limit-store.js';
export { RedisSessionRegistry } from './session-registry.js';
export type { RedisSharedState, RedisSharedStateOptions } from './shared-state.js';
export { createRedisSharedState } from './shared-state.js';
export { RedisSubscriptionBus } from './subscription-bus.js';
export type { RedisTaskStoreOptions } from './task-store.js';
export { RedisTaskStore } from './task-store.js';
