/**
 * A real OpenTelemetry SDK registered in this test process: spans kept in memory, metrics read on demand.
 * One per test file (the API's globals are per process).
 */

import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { useOtelApi } from '../../src/core/telemetry/api.js';
import { loadOtelApi } from '../../src/telemetry/otel-api.js';

class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface OtelHarness {
  readonly spans: () => ReadableSpan[];
  /** The points of metric `name`, read now. */
  readonly points: (name: string) => Promise<DataPoint<number | Histogram>[]>;
  readonly reset: () => void;
}

export function installOtel(): OtelHarness {
  // What the package's entry installs: a test that builds a server from the core alone needs it too.
  useOtelApi(loadOtelApi);
  const exporter = new InMemorySpanExporter();
  const tracing = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  tracing.register();
  const reader = new OnDemandReader({
    aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    spans: () => exporter.getFinishedSpans(),
    points: async (name) => {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics)
        for (const metric of scope.metrics)
          if (metric.descriptor.name === name) return metric.dataPoints as DataPoint<number | Histogram>[];
      return [];
    },
    reset: () => exporter.reset(),
  };
}
