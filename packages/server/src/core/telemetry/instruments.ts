/**
 * The server's metric instruments, made from whatever meter provider is registered with the OpenTelemetry
 * API. The metrics API has no proxy, so the instruments are made again when the global provider changes; with
 * none registered they are the API's no-ops and `on` is false (callers then skip building attributes).
 */

import type {
  Attributes,
  Counter,
  Histogram,
  MeterProvider,
  ObservableResult,
  UpDownCounter,
} from '@opentelemetry/api';
import { type Otel, otelInUse } from './api.js';
import { DURATION_BUCKETS, Metric, type RejectReason } from './names.js';

export interface Instruments {
  /** False when no meter provider is registered: every instrument is a no-op. */
  readonly on: boolean;
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly requestsActive: UpDownCounter;
  readonly sessionsActive: UpDownCounter;
  readonly requestsRejected: Counter;
}

/** The instrumentation scope of every span and metric of this package. */
export const SCOPE = '@entropic-mcp/server';

/** What the queue gauge reads: each live server's scheduler, held weakly (a server nobody closed can go). */
const queues = new Set<WeakRef<{ readonly queued: number }>>();

/** Count `scheduler.queued` in `mcp.server.request.queued` for as long as the scheduler lives. */
export function watchQueue(scheduler: { readonly queued: number }): () => void {
  const ref = new WeakRef(scheduler);
  queues.add(ref);
  return () => queues.delete(ref);
}

function observeQueues(result: ObservableResult): void {
  let sum = 0;
  for (const ref of queues) {
    const scheduler = ref.deref();
    if (scheduler === undefined) queues.delete(ref);
    else sum += scheduler.queued;
  }
  result.observe(sum);
}

function create(api: Otel, provider: MeterProvider): Instruments {
  const meter = provider.getMeter(SCOPE);
  const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
  const on = meter !== api.createNoopMeter();
  if (on) {
    meter
      .createObservableUpDownCounter(Metric.requestsQueued, {
        description: 'Requests waiting for a handler slot',
        unit: '{request}',
      })
      .addCallback(observeQueues);
  }
  return {
    on,
    operationDuration: meter.createHistogram(Metric.operationDuration, {
      description:
        'MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent',
      unit: 's',
      advice,
    }),
    sessionDuration: meter.createHistogram(Metric.sessionDuration, {
      description: 'The duration of the MCP session as observed on the MCP server',
      unit: 's',
      advice,
    }),
    requestsActive: meter.createUpDownCounter(Metric.requestsActive, {
      description: 'Requests received and not answered yet',
      unit: '{request}',
    }),
    sessionsActive: meter.createUpDownCounter(Metric.sessionsActive, {
      description: 'Sessions initialized and not closed yet',
      unit: '{session}',
    }),
    requestsRejected: meter.createCounter(Metric.requestsRejected, {
      description: 'Requests refused before they were served, by reason (auth, limits, validation)',
      unit: '{request}',
    }),
  };
}

let provider: MeterProvider | undefined;
let current: Instruments | undefined;

/** The instruments of the meter provider registered now (made once per provider); `api` is otelInUse()'s. */
export function instruments(api: Otel): Instruments {
  const now = api.metrics.getMeterProvider();
  if (now !== provider || current === undefined) {
    provider = now;
    current = create(api, now);
  }
  return current;
}

const REASONS: Record<RejectReason, Attributes> = {
  auth: Object.freeze({ reason: 'auth' }),
  limits: Object.freeze({ reason: 'limits' }),
  validation: Object.freeze({ reason: 'validation' }),
};

/** Count one request refused before it was served. */
export function countRejected(reason: RejectReason): void {
  // With nothing registered the API's meter is a no-op: nothing to count.
  const api = otelInUse();
  if (api !== undefined) instruments(api).requestsRejected.add(1, REASONS[reason]);
}
