// Middleware recipes of docs/middleware.md: caching a tool's results, redacting a field, retry-safe logging.
// The code between the region markers is the code the guide shows; test/middleware-recipes.test.ts runs it.

import type { Middleware, ToolResult } from '../src/index.js';
import { REDACTED } from '../src/index.js';

// #region cache
/**
 * Answer repeated calls of a tool from memory for `ttlMs`: the key is the caller, the tool and its
 * arguments, so one caller never sees another's answer. Tool errors are not kept; `max` bounds the entries.
 */
export function cacheResults(options: {
  ttlMs: number;
  max?: number;
  now?: () => number;
}): Middleware<'tools/call'> {
  const { ttlMs, max = 1000, now = Date.now } = options;
  const kept = new Map<string, { until: number; json: string }>();
  return async (ctx, next) => {
    const key = JSON.stringify([ctx.principal ?? '', ctx.tool, ctx.params.arguments ?? {}]);
    const hit = kept.get(key);
    if (hit !== undefined && hit.until > now()) return JSON.parse(hit.json) as ToolResult;
    kept.delete(key);
    const result = await next();
    if (result.isError !== true) {
      kept.set(key, { until: now() + ttlMs, json: JSON.stringify(result) });
      if (kept.size > max) kept.delete(kept.keys().next().value as string);
    }
    return result;
  };
}
// #endregion cache

// #region redact
/**
 * Replace the values of `fields` (at any depth) in a tool's answer: in `structuredContent`, and in text
 * blocks that hold JSON. Runs after the output schema was checked: redact only fields typed as strings.
 */
export function redactFields(fields: readonly string[]): Middleware<'tools/call'> {
  const hidden = new Set(fields);
  const scrub = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(scrub);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = hidden.has(key) ? REDACTED : scrub(inner);
    return out;
  };
  const scrubText = (text: string): string => {
    try {
      return JSON.stringify(scrub(JSON.parse(text)));
    } catch {
      return text; // not JSON: left as it is
    }
  };
  return async (_ctx, next) => {
    const result = await next();
    return {
      ...result,
      content: result.content.map((block) =>
        block.type === 'text' ? { ...block, text: scrubText(block.text) } : block,
      ),
      ...(result.structuredContent === undefined
        ? {}
        : { structuredContent: scrub(result.structuredContent) as Record<string, unknown> }),
    };
  };
}
// #endregion redact

// #region log
/** One line per call, written once the call really ended. */
export interface CallLogEntry {
  method: string;
  tool: string | undefined;
  era: string;
  /** 2026-07-28: how many rounds the call took (the client sent it again with the input asked for). */
  rounds: number;
  principal: string | undefined;
  ms: number;
  outcome: 'ok' | 'tool_error' | 'error' | 'cancelled';
  error?: string;
}

/**
 * Log every request once: a 2026-07-28 round that ends asking the client for input is not logged (the
 * retried call is), a cancelled call says so, and a sink that throws never changes the call's answer.
 */
export function logCalls(sink: (entry: CallLogEntry) => void, now: () => number = Date.now): Middleware {
  return async (ctx, next) => {
    const started = now();
    const write = (outcome: CallLogEntry['outcome'], error?: string): void => {
      if (ctx.awaitingInput) return; // this round asks for input: the retried call is logged instead
      const entry: CallLogEntry = {
        method: ctx.method,
        tool: ctx.tool,
        era: ctx.era,
        rounds: ctx.round,
        principal: ctx.principal,
        ms: now() - started,
        outcome,
      };
      if (error !== undefined) entry.error = error;
      try {
        sink(entry);
      } catch {
        // a broken log must not fail the call
      }
    };
    try {
      const result = await next();
      write(result.isError === true ? 'tool_error' : 'ok');
      return result;
    } catch (error) {
      write(
        ctx.signal.aborted ? 'cancelled' : 'error',
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
  };
}
// #endregion log
