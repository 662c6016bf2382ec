/**
 * How the main entry loads the OpenTelemetry API for the core: required on first need, so that a process
 * where nothing is registered with the API never loads it. Where nothing can be required from a file (a bundle
 * for Cloudflare Workers) it is imported instead: at once when the module has no file URL, else on the first
 * failed require (what is traced before that import settles goes unrecorded).
 */

import { createRequire } from 'node:module';
import type { Otel } from '../core/telemetry/api.js';

let imported: Otel | undefined;
let importing = false;

function importApi(): void {
  if (importing) return;
  importing = true;
  void import('@opentelemetry/api').then(
    (api: Otel) => {
      imported = api;
    },
    () => {},
  );
}

if (typeof import.meta.url !== 'string' || !import.meta.url.startsWith('file:')) importApi();

/** The API, or undefined while it cannot be loaded (then nothing is recorded, as with no SDK). */
export function loadOtelApi(): Otel | undefined {
  if (imported !== undefined) return imported;
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as Otel;
  } catch {
    importApi();
    return undefined;
  }
}
