/**
 * What every 2026-07-28 result carries: `resultType`, the server's identity in `_meta`, and, on
 * cacheable results, the caching hints `ttlMs` and `cacheScope`.
 */

import { ErrorCode, McpError } from '../errors.js';
import type { ServerCore } from '../host.js';
import { META_SERVER_INFO } from './envelope.js';

export type { CacheHint, CacheOptions, CacheScope, ResolvedCache } from './cache.js';

/**
 * A complete modern result: a shallow copy of `result` with resultType, serverInfo and hints.
 * Copied key by key on purpose: `{ ...result, resultType, _meta }` made V8 keep growing its young
 * generation under load (the 2026-07-28 stdio bench server peaked at 93 MiB against 55 MiB in 2025).
 */
export function completeResult(server: ServerCore, method: string, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const r = result as Record<string, unknown>;
  const out = copyOf(r);
  out.resultType = 'complete';
  out._meta = withServerInfo(server, r._meta);
  const hint = server.options.cache[method];
  if (hint !== undefined) {
    out.ttlMs = hint.ttlMs;
    out.cacheScope = hint.cacheScope;
  }
  return out;
}

/** A CreateTaskResult (tasks extension): the task, flat, with `resultType: "task"` and the server's identity. */
export function taskCreated(server: ServerCore, task: Record<string, unknown>): Record<string, unknown> {
  return { resultType: 'task', ...task, _meta: withServerInfo(server, undefined) };
}

export function withServerInfo(server: ServerCore, meta: unknown): Record<string, unknown> {
  const out = typeof meta === 'object' && meta !== null ? copyOf(meta as Record<string, unknown>) : {};
  out[META_SERVER_INFO] = server.wireInfo;
  return out;
}

/** A shallow copy of the own enumerable string keys of `source`, in order (`__proto__` as a plain key). */
function copyOf(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = source[key];
  }
  return out;
}

/** Errors whose code changed in 2026-07-28: resource not found is -32602 with the uri. */
export function modernError(error: unknown): unknown {
  if (error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
    const data = error.data as { uri?: unknown } | undefined;
    return new McpError(ErrorCode.InvalidParams, error.message, { uri: data?.uri });
  }
  return error;
}
