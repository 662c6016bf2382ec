// The TS echo server of the telemetry workload, in three settings: the server build named by
// ENTROPIC_BENCH_SERVER (default: this workspace's), with no OpenTelemetry SDK (the API alone), or with
// ENTROPIC_BENCH_OTEL=1 the SDK started first: spans through a BatchSpanProcessor and metrics through a periodic
// reader, both over OTLP http/protobuf to OTEL_EXPORTER_OTLP_ENDPOINT (the workload's sink).
import { register } from './echo-tools.mjs';

if (process.env.ENTROPIC_BENCH_OTEL === '1') {
  const { NodeTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  const { MeterProvider, PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto');
  const { metrics } = await import('@opentelemetry/api');
  const tracing = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  tracing.register();
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(),
    exportIntervalMillis: 5_000,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
}
const where = process.env.ENTROPIC_BENCH_SERVER;
const { McpServer } = await import(where === undefined ? '@entropic-mcp/server' : `${where}/index.js`);
const { serveStdio } = await import(
  where === undefined ? '@entropic-mcp/server/stdio' : `${where}/stdio/index.js`
);

const server = new McpServer({ name: 'entropic-echo', version: '0.0.0' });
register(server);
await serveStdio(server);
