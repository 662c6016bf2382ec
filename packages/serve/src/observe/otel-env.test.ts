// What the standard OTEL_* variables switch on in serve, and the refusals that name the variable.
import { describe, expect, it } from 'vitest';
import { OtelEnvError, readOtelEnv } from './otel-env.js';

describe('readOtelEnv', () => {
  it('exports nothing without an endpoint or an exporter named', () => {
    expect(readOtelEnv({})).toEqual({ metricIntervalMs: 60_000 });
  });

  it('exports both signals over http/protobuf once an endpoint is set, http/json when asked', () => {
    expect(readOtelEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toMatchObject({
      traces: 'http/protobuf',
      metrics: 'http/protobuf',
    });
    const json = readOtelEnv({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
    });
    expect(json).toEqual({ traces: 'http/json', metricIntervalMs: 5000 });
  });

  it('follows OTEL_*_EXPORTER (otlp, none, prometheus) and OTEL_SDK_DISABLED', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'prometheus' };
    expect(readOtelEnv(env)).toEqual({
      traces: 'http/protobuf',
      metricIntervalMs: 60_000,
      prometheus: { host: 'localhost', port: 9464 },
    });
    expect(readOtelEnv({ ...env, OTEL_TRACES_EXPORTER: 'none' }).traces).toBeUndefined();
    expect(readOtelEnv({ OTEL_TRACES_EXPORTER: 'otlp' }).traces).toBe('http/protobuf');
    expect(readOtelEnv({ ...env, OTEL_SDK_DISABLED: 'true' })).toEqual({ metricIntervalMs: 60_000 });
  });

  it('refuses what it cannot do, naming the variable and what works', () => {
    const grpc = () =>
      readOtelEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc).toThrow(OtelEnvError);
    expect(grpc).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported .* http\/protobuf .* or http\/json/,
    );
    expect(() => readOtelEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /OTEL_TRACES_EXPORTER=zipkin: "zipkin"/,
    );
    expect(() => readOtelEnv({ OTEL_METRIC_EXPORT_INTERVAL: 'soon' })).toThrow(
      /OTEL_METRIC_EXPORT_INTERVAL=soon/,
    );
  });
});
