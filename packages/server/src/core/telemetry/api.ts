/**
 * Where the core reaches the OpenTelemetry API: through a loader installed by the package's entry, called the
 * first time something is registered with the API. Until then nothing of the API is loaded (a server that is
 * never observed does without it), and every API call would have been a no-op anyway.
 */

import type * as OtelApi from '@opentelemetry/api';

export type Otel = typeof OtelApi;

/**
 * The API keeps whatever is registered with it (a tracer, meter or propagator provider, a context manager) under
 * this global, made by the first registration. Without it every API call is a no-op, so the telemetry skips
 * even those: the cost of a request without an SDK is this one lookup.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let loader: (() => Otel | undefined) | undefined;
let api: Otel | undefined;

/** Install how the API is loaded (the package's entry does, once); `load` returns undefined when it cannot. */
export function useOtelApi(load: () => Otel | undefined): void {
  loader = load;
  api = undefined;
}

/** The API, once something is registered with it and it can be loaded; else undefined (nothing to record). */
export function otelInUse(): Otel | undefined {
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
  api ??= loader?.();
  return api;
}
