/**
 * What the standard OpenTelemetry environment variables ask `serve` to export. Traces and metrics go over OTLP
 * when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the per-signal `..._TRACES_ENDPOINT` /
 * `..._METRICS_ENDPOINT`) or when `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER` name `otlp`; `none` turns a
 * signal off, `OTEL_SDK_DISABLED=true` both. `OTEL_METRICS_EXPORTER=prometheus` is `--metrics` on
 * `OTEL_EXPORTER_PROMETHEUS_HOST:PORT`. The exporters themselves read the endpoint, headers and timeouts; the
 * SDK reads the sampler (`OTEL_TRACES_SAMPLER`), the batch settings and the resource (`OTEL_SERVICE_NAME`).
 */
import { ServeError } from '../config/errors.js';

export type OtlpProtocol = 'http/json' | 'http/protobuf';

export interface OtelSettings {
  /** Export spans with this OTLP protocol (undefined: no span export). */
  readonly traces?: OtlpProtocol;
  /** Export metrics with this OTLP protocol every `metricIntervalMs`. */
  readonly metrics?: OtlpProtocol;
  readonly metricIntervalMs: number;
  /** `OTEL_METRICS_EXPORTER=prometheus`: where to serve `/metrics`. */
  readonly prometheus?: { readonly host: string; readonly port: number };
}

/** An OTEL_* variable `serve` cannot honour; the message names it, its value and what works. */
export class OtelEnvError extends ServeError<'ENTROPIC_MCP_OTEL_ENV'> {
  override readonly name = 'OtelEnvError';
  constructor(message: string) {
    super('ENTROPIC_MCP_OTEL_ENV', message);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

function set(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function protocolOf(env: Env, signal: 'TRACES' | 'METRICS'): OtlpProtocol {
  const name = set(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = set(env, name) ?? 'http/protobuf';
  if (!PROTOCOLS.includes(value)) {
    throw new OtelEnvError(
      `${name}=${value} is not supported by entropic-mcp serve; use http/protobuf (the default) or http/json`,
    );
  }
  return value as OtlpProtocol;
}

/** The exporters named for one signal: `otlp` or `none` (and `prometheus` for metrics). */
function exportersOf(env: Env, name: string, allowed: readonly string[]): string[] | undefined {
  const value = set(env, name);
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of list) {
    if (!allowed.includes(item)) {
      throw new OtelEnvError(
        `${name}=${value}: "${item}" is not supported by entropic-mcp serve (use ${allowed.join(', ')})`,
      );
    }
  }
  return list;
}

function signalOf(
  env: Env,
  signal: 'TRACES' | 'METRICS',
  exporters: string[] | undefined,
): OtlpProtocol | undefined {
  if (exporters === undefined) {
    const endpoint =
      set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? set(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
    return endpoint === undefined ? undefined : protocolOf(env, signal);
  }
  return exporters.includes('otlp') ? protocolOf(env, signal) : undefined;
}

function port(env: Env): number {
  const text = set(env, 'OTEL_EXPORTER_PROMETHEUS_PORT') ?? '9464';
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) {
    throw new OtelEnvError(`OTEL_EXPORTER_PROMETHEUS_PORT=${text} is not a port number (0-65535)`);
  }
  return value;
}

export function readOtelEnv(env: Env): OtelSettings {
  const interval = set(env, 'OTEL_METRIC_EXPORT_INTERVAL');
  const metricIntervalMs = interval === undefined ? 60_000 : Number(interval);
  if (!Number.isFinite(metricIntervalMs) || metricIntervalMs <= 0) {
    throw new OtelEnvError(
      `OTEL_METRIC_EXPORT_INTERVAL=${interval} is not a positive number of milliseconds`,
    );
  }
  if (set(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { metricIntervalMs };
  const traceExporters = exportersOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none']);
  const metricExporters = exportersOf(env, 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus', 'none']);
  const traces = signalOf(env, 'TRACES', traceExporters);
  const metrics = signalOf(env, 'METRICS', metricExporters);
  const prometheus = metricExporters?.includes('prometheus')
    ? { host: set(env, 'OTEL_EXPORTER_PROMETHEUS_HOST') ?? 'localhost', port: port(env) }
    : undefined;
  return {
    metricIntervalMs,
    ...(traces === undefined ? {} : { traces }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(prometheus === undefined ? {} : { prometheus }),
  };
}
