/** Server options, each with a documented default. */

import { type CacheOptions, type ResolvedCache, resolveCache } from './modern/cache.js';
import type { RequestStateOptions } from './modern/sealer.js';
import type { RateLimitOptions } from './rate-limit/types.js';
import type { SubscriptionBus } from './subscription-bus.js';
import type { TaskOptions } from './tasks/types.js';

export interface CapabilityOptions {
  /** Emit `notifications/{tools,resources,prompts}/list_changed` when registries change. Default true. */
  listChanged?: boolean;
  /** Accept `resources/subscribe` and emit `notifications/resources/updated`. Default false. */
  subscribe?: boolean;
  /** Advertise `logging` (accept `logging/setLevel`, send `notifications/message`). Default true. */
  logging?: boolean;
  /** Advertise `completions`. Default: advertised when any prompt or template has a completer. */
  completions?: boolean;
  /**
   * Advertise tools/resources/prompts even when none is registered at initialize (useful when they
   * are added later). Default: advertised when at least one is registered.
   */
  tools?: boolean;
  resources?: boolean;
  prompts?: boolean;
  experimental?: Record<string, object>;
  /** Extensions to declare under `capabilities.extensions`, by id (as `server.declareExtension` does). */
  extensions?: Record<string, Record<string, unknown>>;
}

export interface ServerOptions {
  /** Handlers (tools/call, resources/read, prompts/get, completion/complete) running at once. Default 4. */
  maxConcurrency?: number;
  /** Requests waiting for a handler slot before new ones are refused with -32000. Default 1024. */
  maxQueued?: number;
  /** A handler running longer is aborted and answered with -32001. 0 disables. Default 30 000. */
  handlerTimeoutMs?: number;
  /** Default timeout of server-to-client requests (elicitation, sampling, roots). Default 60 000. */
  requestTimeoutMs?: number;
  /** Deepest nesting of arrays/objects accepted in a message. Default 64. */
  maxJsonDepth?: number;
  /** Most values (objects, arrays, scalars) accepted in one message. Default 100 000. */
  maxJsonElements?: number;
  /** Items per page of every list result. Default 100. */
  pageSize?: number;
  /** Replace credential-like keys in log data with "[REDACTED]". Default true. */
  redactLogs?: boolean;
  capabilities?: CapabilityOptions;
  /**
   * Where change events go to reach `subscriptions/listen` streams (2026-07-28). Share one bus
   * (e.g. pub/sub in a store) between processes behind one endpoint. Default: in this process only.
   */
  subscriptionBus?: SubscriptionBus;
  /** Caching hints (`ttlMs`, `cacheScope`) of 2026-07-28 results; see CacheOptions for defaults. */
  cache?: CacheOptions;
  /** Sealing of the `requestState` of multi-round-trip requests (2026-07-28). */
  requestState?: RequestStateOptions;
  /**
   * Tasks (both eras): where they live, limits and TTLs. Tasks are switched on by the first tool that
   * can run as one (`execution.taskSupport`); `false` refuses such tools.
   */
  tasks?: TaskOptions | false;
  /**
   * The time (ms since epoch) of every time this server writes for other processes to read: when a task
   * was made and changed (and so when it expires), when a sealed `requestState` expires. Processes
   * behind one endpoint must agree on it: give them the shared store's clock (`@entropic-mcp/redis`:
   * `sharedState.now`, Redis's time), so that a process whose wall clock is wrong still agrees. Default
   * `Date.now` (this process's clock; the in-memory task store keeps that clock too).
   */
  clock?: () => number;
  /**
   * Requests a second per caller (token buckets): a default, and rules per tool or method. A request over
   * its limit is answered -32029 naming the limit and the wait (HTTP: 429 with Retry-After). Default: none.
   */
  rateLimits?: RateLimitOptions;
}

export interface ResolvedOptions {
  maxConcurrency: number;
  maxQueued: number;
  handlerTimeoutMs: number;
  requestTimeoutMs: number;
  maxJsonDepth: number;
  maxJsonElements: number;
  pageSize: number;
  redactLogs: boolean;
  listChanged: boolean;
  subscribe: boolean;
  logging: boolean;
  completions: boolean | undefined;
  advertise: { tools: boolean; resources: boolean; prompts: boolean };
  experimental: Record<string, object> | undefined;
  extensions: Record<string, Record<string, unknown>>;
  subscriptionBus: SubscriptionBus | undefined;
  cache: ResolvedCache;
  requestState: RequestStateOptions;
  tasks: TaskOptions | false | undefined;
  clock: () => number;
  rateLimits: RateLimitOptions | undefined;
}

function positiveInt(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new TypeError(
      `ServerOptions.${name} must be ${allowZero ? 'a non-negative' : 'a positive'} integer`,
    );
  }
  return value;
}

export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  const caps = options.capabilities ?? {};
  return {
    maxConcurrency: positiveInt('maxConcurrency', options.maxConcurrency, 4),
    maxQueued: positiveInt('maxQueued', options.maxQueued, 1024, true),
    handlerTimeoutMs: positiveInt('handlerTimeoutMs', options.handlerTimeoutMs, 30_000, true),
    requestTimeoutMs: positiveInt('requestTimeoutMs', options.requestTimeoutMs, 60_000, true),
    maxJsonDepth: positiveInt('maxJsonDepth', options.maxJsonDepth, 64),
    maxJsonElements: positiveInt('maxJsonElements', options.maxJsonElements, 100_000),
    pageSize: positiveInt('pageSize', options.pageSize, 100),
    redactLogs: options.redactLogs ?? true,
    listChanged: caps.listChanged ?? true,
    subscribe: caps.subscribe ?? false,
    logging: caps.logging ?? true,
    completions: caps.completions,
    advertise: {
      tools: caps.tools ?? false,
      resources: caps.resources ?? false,
      prompts: caps.prompts ?? false,
    },
    experimental: caps.experimental,
    extensions: caps.extensions ?? {},
    subscriptionBus: options.subscriptionBus,
    cache: resolveCache(options.cache),
    requestState: { ...options.requestState },
    tasks: options.tasks,
    clock: clockOf(options.clock),
    rateLimits: options.rateLimits,
  };
}

function clockOf(clock: (() => number) | undefined): () => number {
  if (clock === undefined) return Date.now;
  if (typeof clock !== 'function') throw new TypeError('ServerOptions.clock must be a function returning ms');
  return clock;
}
