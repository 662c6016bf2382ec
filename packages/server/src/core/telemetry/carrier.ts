/**
 * Trace context in and out of MCP messages: a request's parent comes from `params._meta.traceparent` /
 * `tracestate` (the MCP conventions' carrier), else from the HTTP `traceparent` header, else it is the
 * ambient context; a request the server sends carries its span's context in its own `params._meta`.
 * Extraction and injection go through the propagator registered with the API (none: nothing happens).
 */

import type { Context, TextMapGetter } from '@opentelemetry/api';
import type { Otel } from './api.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const headerGetter: TextMapGetter<Headers> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()],
};

/** The parent of the span of a message with these params, received with these HTTP headers. */
export function parentContext(
  api: Otel,
  params: Record<string, unknown> | undefined,
  headers: Headers | undefined,
): Context {
  const { propagation } = api;
  const ambient = api.context.active();
  const meta = params?._meta;
  if (
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as { traceparent?: unknown }).traceparent === 'string'
  ) {
    return propagation.extract(ambient, meta as Record<string, unknown>, metaGetter);
  }
  if (headers?.traceparent !== undefined) return propagation.extract(ambient, headers, headerGetter);
  return ambient;
}

/** `params` with the trace context of `ctx` added to its `_meta` (a copy; the caller's object is untouched). */
export function withTraceContext(
  api: Otel,
  params: Record<string, unknown> | undefined,
  ctx: Context,
): Record<string, unknown> | undefined {
  const carrier: Record<string, string> = {};
  api.propagation.inject(ctx, carrier);
  if (Object.keys(carrier).length === 0) return params;
  const meta = params?._meta;
  const base = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  return { ...params, _meta: { ...base, ...carrier } };
}
