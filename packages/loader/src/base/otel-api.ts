/**
 * The OpenTelemetry API, required only once something is registered with it: until then every API call is a
 * no-op, so a process that is never observed does without loading it (the loader's telemetry and serve's log).
 */

import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';

export type Otel = typeof OtelApi;

/** Made by the API's first registration (an SDK, a context manager, a propagator). */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let api: Otel | undefined;

/** The API, loaded now if it was not yet. */
export function otelApi(): Otel {
  api ??= createRequire(import.meta.url)('@opentelemetry/api') as Otel;
  return api;
}

/** The API when anything is registered with it; else undefined, and the API is not loaded. */
export function otelInUse(): Otel | undefined {
  return (globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined ? undefined : otelApi();
}
