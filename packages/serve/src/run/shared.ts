/**
 * What `serve --redis` adds: one connection set to Redis shared by the event store, the session
 * registry, the message router, the subscription bus and the task store, and the MRTR sealing key
 * from the config, so that any process behind the load balancer can serve any request, on Redis's
 * clock; it warns about what such a deployment lacks (a shared sealing key, a trusted proxy) and about
 * a clock that disagrees with Redis's. Rate-limit buckets are shared there too. Task limits
 * (`mcp.tasks`) apply with or without Redis.
 */

import type { RateLimitStore, ServerOptions, TaskOptions } from '@entropic-mcp/server';
import type { ServeHttpOptions } from '@entropic-mcp/server/http';
import { ServeError } from '../config/errors.js';
import type { ServePlan } from '../config/plan.js';

export interface SharedServe {
  readonly server: Pick<ServerOptions, 'subscriptionBus' | 'requestState' | 'tasks' | 'clock'>;
  readonly http: Pick<ServeHttpOptions, 'sharedSessions' | 'eventStore'>;
  /** Where rate-limit buckets live when every process shares them (Redis); else each process's memory. */
  readonly rateLimitStore?: RateLimitStore;
  close(): Promise<void>;
}

const NO_SHARED_KEY =
  'entropic-mcp serve: warning: --redis without mcp.request_state_key: this process seals 2026-07-28 ' +
  'requestState with a key of its own, so a multi-round-trip retry that reaches another serve process ' +
  'is refused; set mcp.request_state_key (at least 32 characters, the same on every machine)\n';

const NO_TRUSTED_PROXY =
  'entropic-mcp serve: warning: --redis without --trusted-proxy: behind a load balancer every client ' +
  "shares the balancer's address, so clients without auth share one client's limits and all the " +
  "balancer's connections count as one address's (maxConnectionsPerClient); set --trusted-proxy ADDR " +
  "(or mcp.trusted_proxies) to the balancer's address and have it send X-Forwarded-For " +
  '(HAProxy: option forwardfor)\n';

/** Redis refused or unreachable at start-up; the message names the URL (no password) and why. */
export class SharedStateError extends ServeError<'ENTROPIC_MCP_SHARED_STATE'> {
  override readonly name = 'SharedStateError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('ENTROPIC_MCP_SHARED_STATE', message, options);
  }
}

/** `mcp.tasks` as the server's task options. */
function taskOptions(plan: ServePlan): TaskOptions {
  const t = plan.tasks;
  return {
    ...(t.maxPerPrincipal === undefined ? {} : { maxTasksPerPrincipal: t.maxPerPrincipal }),
    ...(t.maxFinishedPerPrincipal === undefined
      ? {}
      : { maxFinishedTasksPerPrincipal: t.maxFinishedPerPrincipal }),
    ...(t.maxFinishedBytesPerPrincipal === undefined
      ? {}
      : { maxFinishedBytesPerPrincipal: t.maxFinishedBytesPerPrincipal }),
    ...(t.defaultTtlMs === undefined ? {} : { defaultTtlMs: t.defaultTtlMs }),
    ...(t.maxTtlMs === undefined ? {} : { maxTtlMs: t.maxTtlMs }),
    ...(t.pollIntervalMs === undefined ? {} : { pollIntervalMs: t.pollIntervalMs }),
    ...(t.syncWindowMs === undefined ? {} : { syncWindowMs: t.syncWindowMs }),
  };
}

export async function openSharedState(plan: ServePlan, report: (text: string) => void): Promise<SharedServe> {
  const requestState =
    plan.requestStateKey === undefined ? {} : { requestState: { key: plan.requestStateKey } };
  const tasks = taskOptions(plan);
  if (plan.redis === undefined)
    return { server: { ...requestState, tasks }, http: {}, close: async () => {} };
  if (plan.transport.kind !== 'http') throw new SharedStateError('--redis (or mcp.redis) needs --http');
  if (plan.requestStateKey === undefined) report(NO_SHARED_KEY);
  if ((plan.limits.trustedProxies ?? []).length === 0) report(NO_TRUSTED_PROXY);
  const { createRedisSharedState, RedisUnavailableError } = await importRedis();
  try {
    const shared = await createRedisSharedState(plan.redis, {
      connectionName: `entropic-mcp-${process.pid}`,
      ...(plan.redisTimeoutMs === undefined ? {} : { timeoutMs: plan.redisTimeoutMs }),
      onError: (error) => report(`entropic-mcp serve: redis: ${error.message}\n`),
      ...(plan.nodeTimeoutMs === undefined ? {} : { nodeTtlMs: plan.nodeTimeoutMs }),
      clock: { onSkew: (message) => report(`entropic-mcp serve: warning: redis: ${message}\n`) },
    });
    // The URL as given: the report masks its password, as it masks every secret serve was given.
    report(`entropic-mcp serve: shared state on Redis at ${plan.redis}\n`);
    return {
      server: {
        ...requestState,
        subscriptionBus: shared.subscriptionBus,
        tasks: { ...tasks, store: shared.taskStore },
        // Times other processes read (task times, sealed requestState expiry) are on Redis's clock.
        clock: shared.now,
      },
      http: { sharedSessions: shared, eventStore: shared.eventStore },
      rateLimitStore: shared.rateLimitStore,
      close: () => shared.close(),
    };
  } catch (error) {
    if (error instanceof RedisUnavailableError) throw new SharedStateError(error.message, { cause: error });
    throw error;
  }
}

/** `@entropic-mcp/redis` is loaded only when `--redis` asks for it; a missing install is named. */
async function importRedis(): Promise<typeof import('@entropic-mcp/redis')> {
  try {
    return await import('@entropic-mcp/redis');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new SharedStateError(
      '--redis (or mcp.redis) needs the package @entropic-mcp/redis beside @entropic-mcp/serve: ' +
        'npm install @entropic-mcp/redis',
      { cause: error },
    );
  }
}
