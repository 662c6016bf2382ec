/**
 * Starts the OpenTelemetry SDK for `serve`, only as far as asked: a tracer provider with a batching OTLP
 * exporter when spans are exported, a meter provider with a periodic OTLP reader and/or a reader that `/metrics`
 * collects on demand. Nothing is registered when nothing is asked, so the API stays a no-op. The SDK and
 * exporters are imported here, lazily: a `serve` that exports nothing never loads them.
 */
import { randomUUID } from 'node:crypto';
import type { Resource } from '@opentelemetry/resources';
import type { MetricReader, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { OtelSettings, OtlpProtocol } from './otel-env.js';

export interface ServeTelemetry {
  /** Reads every metric now (present when `/metrics` is served from this process or its primary). */
  readonly collect: (() => Promise<ResourceMetrics>) | undefined;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface SdkOptions {
  readonly settings: OtelSettings;
  /** Keep a reader that collects on demand (for a Prometheus endpoint). */
  readonly pull: boolean;
  readonly serviceVersion: string;
}

async function traceExporter(protocol: OtlpProtocol) {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

async function metricExporter(protocol: OtlpProtocol) {
  if (protocol === 'http/json') {
    const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
    return new OTLPMetricExporter();
  }
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new OTLPMetricExporter();
}

async function resourceOf(serviceVersion: string): Promise<Resource> {
  const { detectResources, envDetector, resourceFromAttributes } = await import('@opentelemetry/resources');
  const base = resourceFromAttributes({
    'service.name': 'entropic-mcp',
    'service.version': serviceVersion,
    'service.instance.id': randomUUID(),
  });
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults.
  return base.merge(detectResources({ detectors: [envDetector] }));
}

/** Starts what `options` ask for; undefined when they ask for nothing (no SDK is loaded then). */
export async function startSdk(options: SdkOptions): Promise<ServeTelemetry | undefined> {
  const { settings, pull } = options;
  if (settings.traces === undefined && settings.metrics === undefined && !pull) return undefined;
  const { context, metrics, propagation, trace } = await import('@opentelemetry/api');
  const resource = await resourceOf(options.serviceVersion);
  const stops: (() => Promise<void>)[] = [];
  if (settings.traces !== undefined) {
    const { BatchSpanProcessor, NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(await traceExporter(settings.traces))],
    });
    provider.register();
    stops.push(async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    });
  }
  let collect: ServeTelemetry['collect'];
  if (settings.metrics !== undefined || pull) {
    const sdk = await import('@opentelemetry/sdk-metrics');
    const readers: MetricReader[] = [];
    if (settings.metrics !== undefined) {
      readers.push(
        new sdk.PeriodicExportingMetricReader({
          exporter: await metricExporter(settings.metrics),
          exportIntervalMillis: settings.metricIntervalMs,
          exportTimeoutMillis: Math.min(30_000, settings.metricIntervalMs),
        }),
      );
    }
    if (pull) {
      class PullReader extends sdk.MetricReader {
        protected override async onForceFlush(): Promise<void> {}
        protected override async onShutdown(): Promise<void> {}
      }
      const reader = new PullReader();
      readers.push(reader);
      collect = async () => (await reader.collect()).resourceMetrics;
    }
    const provider = new sdk.MeterProvider({ resource, readers });
    metrics.setGlobalMeterProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      metrics.disable();
    });
  }
  return {
    collect,
    shutdown: async () => {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}
