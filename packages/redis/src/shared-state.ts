/**
 * Everything a server process needs from Redis to share sessions and tasks, in one call: two
 * connections (commands, and subscriber mode), the event store, the session registry, the message
 * router, the subscription bus and the task store (with this process's liveness key), all under one
 * key prefix and one node id; and Redis's clock (`now`, for the server's `clock` option), with this
 * process's skew from it watched.
 */

import type { SharedSessionState } from '@entropic-mcp/server/http';
import { RedisClock, type RedisClockOptions } from './clock.js';
import { connectRedis, type RedisConnectOptions } from './connect.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { newNodeId, RedisMessageRouter } from './message-router.js';
import { NodeLiveness } from './node-liveness.js';
import { RedisRateLimitStore } from './rate-limit-store.js';
import { RedisSessionRegistry } from './session-registry.js';
import { RedisSubscriptionBus } from './subscription-bus.js';
import { RedisTaskStore } from './task-store.js';

export interface RedisSharedStateOptions extends RedisConnectOptions, RedisEventStoreOptions {
  /** This process's tag (default random). */
  readonly nodeId?: string;
  /**
   * How long this process's liveness key outlives its last refresh (ms); a process silent that long
   * (and two refresh intervals more) is taken for gone: its unanswered calls are answered with an
   * error when the client resumes them, and the tasks it ran read failed. Default 10,000.
   */
  readonly nodeTtlMs?: number;
  readonly onError?: (error: Error) => void;
  /** How this process's skew from Redis's clock is watched and reported (see RedisClock). */
  readonly clock?: RedisClockOptions;
}

export interface RedisSharedState extends SharedSessionState {
  readonly eventStore: RedisEventStore;
  /** For the server's `subscriptionBus` option (2026-07-28 listen streams). */
  readonly subscriptionBus: RedisSubscriptionBus;
  /** For the server's `tasks.store` option: tasks shared by every process. */
  readonly taskStore: RedisTaskStore;
  /** For the server's `rateLimits.store` option: buckets every process shares, on Redis's clock. */
  readonly rateLimitStore: RedisRateLimitStore;
  /** Redis's clock as this process reads it, and this process's skew from it. */
  readonly clock: RedisClock;
  /** `clock.now`: for the server's `clock` option (and the shared sessions' claims). */
  readonly now: () => number;
  /** Close both connections. */
  close(): Promise<void>;
}

/** Connect to `url` (rejects with RedisUnavailableError when Redis does not answer). */
export async function createRedisSharedState(
  url: string,
  options: RedisSharedStateOptions = {},
): Promise<RedisSharedState> {
  const commands = await connectRedis(url, { ...options, autoPipelining: true });
  let subscriber: Awaited<ReturnType<typeof connectRedis>>;
  try {
    subscriber = await connectRedis(url, { ...options, autoPipelining: false });
  } catch (error) {
    commands.disconnect();
    throw error;
  }
  const prefix = { keyPrefix: options.keyPrefix };
  const nodeId = options.nodeId ?? newNodeId();
  let liveness: NodeLiveness;
  let router: RedisMessageRouter;
  let subscriptionBus: RedisSubscriptionBus;
  let taskStore: RedisTaskStore;
  let clock: RedisClock;
  try {
    clock = new RedisClock(commands, options.clock);
    liveness = new NodeLiveness(commands, { ...prefix, nodeId, ttlMs: options.nodeTtlMs });
    router = new RedisMessageRouter(commands, subscriber, {
      ...prefix,
      nodeId,
      onError: options.onError,
      liveness,
    });
    subscriptionBus = new RedisSubscriptionBus(commands, subscriber, { ...prefix, onError: options.onError });
    taskStore = new RedisTaskStore(commands, subscriber, {
      ...prefix,
      nodeId,
      liveness,
      onError: options.onError,
    });
  } catch (error) {
    commands.disconnect();
    subscriber.disconnect();
    throw error;
  }
  await Promise.all([subscriptionBus.ready(), liveness.start(), taskStore.ready(), clock.start()]).catch(
    (error: unknown) => {
      clock.stop();
      void liveness.stop().catch(() => {});
      commands.disconnect();
      subscriber.disconnect();
      throw error;
    },
  );
  return {
    subscriptionBus,
    taskStore,
    registry: new RedisSessionRegistry(commands, prefix),
    router,
    eventStore: new RedisEventStore(commands, options),
    rateLimitStore: new RedisRateLimitStore(commands, prefix),
    clock,
    now: clock.now,
    async close() {
      clock.stop();
      await taskStore.close();
      await liveness.stop().catch(() => {});
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
    },
  };
}
