/**
 * What every 2026-07-28 result carries: `resultType`, the server's identity in `_meta`, and, on
 * cacheable results, the caching hints `ttlMs` and `cacheScope`.
 */

import { ErrorCode, McpError } from '../errors.js';
import { PreparedJson } from '../raw-json.js';
import type { ResolvedCache } from './cache.js';
import { META_SERVER_INFO } from './envelope.js';

export type { CacheHint, CacheOptions, CacheScope, ResolvedCache } from './cache.js';

/**
 * What a result reads of its server (the server's core view has all of it): its identity, the caching
 * hints, and which lists hold items some callers may not see.
 */
export interface ResultSource {
  readonly wireInfo: Record<string, unknown>;
  readonly options: { readonly cache: ResolvedCache };
  readonly tools: { readonly filtered: boolean };
  readonly prompts: { readonly filtered: boolean };
  readonly resources: { readonly filtered: boolean };
  readonly templates: { readonly filtered: boolean };
}

/**
 * A complete modern result: a shallow copy of `result` with resultType, serverInfo and hints.
 * Copied key by key on purpose: `{ ...result, resultType, _meta }` made V8 keep growing its young
 * generation under load (the 2026-07-28 stdio bench server peaked at 93 MiB against 55 MiB in 2025).
 */
export function completeResult(server: ResultSource, method: string, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const r = result as Record<string, unknown>;
  // A result that keeps its fields' texts is copied into an object written from them (one copy either way).
  const prepared =
    result instanceof PreparedJson && typeof result.fieldTexts === 'function'
      ? new PreparedComplete(result)
      : undefined;
  const out = copyInto((prepared ?? {}) as Record<string, unknown>, r);
  out.resultType = 'complete';
  out._meta = withServerInfo(server, r._meta);
  const hint = server.options.cache[method];
  if (hint !== undefined) {
    out.ttlMs = hint.ttlMs;
    out.cacheScope = hint.cacheScope === 'public' && perCaller(server, method) ? 'private' : hint.cacheScope;
  }
  prepared?.seal();
  return out;
}

/**
 * Whether `method` answers differently per caller (a list some of whose items have a visibility rule):
 * such a result is never marked `public`, so no shared cache hands one caller's list to another.
 */
function perCaller(server: ResultSource, method: string): boolean {
  if (method === 'tools/list') return server.tools.filtered;
  if (method === 'prompts/list') return server.prompts.filtered;
  if (method === 'resources/list' || method === 'resources/templates/list' || method === 'resources/read')
    return server.resources.filtered || server.templates.filtered;
  return false;
}

/** Result keys as JSON strings, for the few keys results have (bounded: an odd key is quoted each time). */
const KEY_TEXTS = new Map<string, string>();

function keyText(key: string): string {
  let text = KEY_TEXTS.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (KEY_TEXTS.size < 64) KEY_TEXTS.set(key, text);
  }
  return text;
}

/** The fields completeResult adds or replaces; every other field of a copy is the handler's own. */
const COMPLETION_KEYS: ReadonlySet<string> = new Set(['resultType', '_meta', 'ttlMs', 'cacheScope']);

/**
 * The complete result of a handler whose result keeps the JSON text of its fields (`PreparedJson.fieldTexts`, a
 * C plugin's usual success): the fields of completeResult's copy, written from the handler's texts for the
 * fields it kept and serialised for those it added. It vouches only while every field is still the value it was
 * made with (and each kept one the handler's, which vouches for its own); otherwise it is serialised as usual.
 */
class PreparedComplete extends PreparedJson {
  readonly #base: PreparedJson;
  #keys: string[] = [];
  #values: unknown[] = [];

  constructor(base: PreparedJson) {
    super();
    this.#base = base;
  }

  /** Takes note of the fields as completeResult left them: what it vouches for from now on. */
  seal(): void {
    const self = this as unknown as Record<string, unknown>;
    this.#keys = Object.keys(self);
    this.#values = this.#keys.map((key) => self[key]);
  }

  jsonText(): string | undefined {
    const texts = this.#base.fieldTexts?.();
    if (texts === undefined) return undefined;
    const keys = this.#keys;
    const own = Object.keys(this);
    if (own.length !== keys.length) return undefined;
    const self = this as unknown as Record<string, unknown>;
    const base = this.#base as unknown as Record<string, unknown>;
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const value = self[key];
      if (own[i] !== key || value !== this.#values[i]) return undefined;
      let text: string | undefined;
      if (COMPLETION_KEYS.has(key)) text = JSON.stringify(value);
      else if (base[key] === value && Object.hasOwn(texts, key)) text = texts[key];
      if (text === undefined) return undefined;
      out += `${i === 0 ? '' : ','}${keyText(key)}:${text}`;
    }
    return `${out}}`;
  }
}

/** A CreateTaskResult (tasks extension): the task, flat, with `resultType: "task"` and the server's identity. */
export function taskCreated(server: ResultSource, task: Record<string, unknown>): Record<string, unknown> {
  return { resultType: 'task', ...task, _meta: withServerInfo(server, undefined) };
}

export function withServerInfo(server: ResultSource, meta: unknown): Record<string, unknown> {
  const out = typeof meta === 'object' && meta !== null ? copyOf(meta as Record<string, unknown>) : {};
  out[META_SERVER_INFO] = server.wireInfo;
  return out;
}

/** A shallow copy of the own enumerable string keys of `source`, in order (`__proto__` as a plain key). */
function copyOf(source: Record<string, unknown>): Record<string, unknown> {
  return copyInto({}, source);
}

/** Sets `source`'s own enumerable string keys on `out`, in order (`__proto__` as a plain key); returns `out`. */
function copyInto(out: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
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
