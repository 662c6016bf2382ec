/**
 * `--metrics` with `--workers N`: one endpoint, on the primary, that adds up every worker. On each scrape the
 * primary asks each worker (over the cluster's IPC channel) for its metrics and merges them series by series:
 * counters and histograms are summed, and so are the gauges (requests in flight, sessions open) of the workers
 * alive now. When a worker dies, the counters and histograms of its last answer are kept and added to every
 * later scrape, so a total never goes down when a worker is replaced (what it counted after that last answer
 * is lost).
 */
import type { Worker } from 'node:cluster';
import {
  type DataPoint,
  DataPointType,
  type Histogram,
  type MetricData,
  type ScopeMetrics,
} from '@opentelemetry/sdk-metrics';

const ASK = 'entropic-mcp:metrics?';
const ANSWER = 'entropic-mcp:metrics';
/** A worker that has not answered by then is counted from its last answer. */
const ANSWER_WAIT_MS = 2_000;

interface Answer {
  readonly [ANSWER]: number;
  readonly scopeMetrics: ScopeMetrics[];
}

/** Worker side: answer the primary's requests with `collect()`'s metrics. */
export function answerMetricRequests(collect: () => Promise<{ scopeMetrics: ScopeMetrics[] }>): void {
  process.on('message', (message: unknown) => {
    const id = (message as Record<string, unknown> | null)?.[ASK];
    if (typeof id !== 'number') return;
    collect().then(
      ({ scopeMetrics }) => process.send?.({ [ANSWER]: id, scopeMetrics } satisfies Answer),
      () => process.send?.({ [ANSWER]: id, scopeMetrics: [] } satisfies Answer),
    );
  });
}

/** Whether a metric keeps counting across scrapes (its past is carried over when its worker dies). */
function cumulative(metric: MetricData): boolean {
  return (
    metric.dataPointType === DataPointType.HISTOGRAM ||
    (metric.dataPointType === DataPointType.SUM && metric.isMonotonic)
  );
}

function pointKey(point: DataPoint<unknown>): string {
  return JSON.stringify(Object.entries(point.attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function addPoint(
  into: DataPoint<number | Histogram>,
  point: DataPoint<number | Histogram>,
): DataPoint<number | Histogram> {
  if (typeof into.value === 'number' && typeof point.value === 'number')
    return { ...into, value: into.value + point.value };
  const a = into.value as Histogram;
  const b = point.value as Histogram;
  const counts = a.buckets.counts.map((count, i) => count + (b.buckets.counts[i] ?? 0));
  const value: Histogram = {
    buckets: { boundaries: a.buckets.boundaries, counts },
    sum: (a.sum ?? 0) + (b.sum ?? 0),
    count: a.count + b.count,
    ...(a.min === undefined || b.min === undefined ? {} : { min: Math.min(a.min, b.min) }),
    ...(a.max === undefined || b.max === undefined ? {} : { max: Math.max(a.max, b.max) }),
  };
  return { ...into, value };
}

type Points = Map<string, DataPoint<number | Histogram>>;

/** The value of `key` in `map`, made by `make` the first time. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** Series by series sum of several processes' metrics (`keep` picks which metrics take part). */
export function mergeMetrics(
  snapshots: readonly ScopeMetrics[][],
  keep: (metric: MetricData) => boolean = () => true,
): ScopeMetrics[] {
  type Merged = { metric: MetricData; points: Points };
  const scopes = new Map<string, { scope: ScopeMetrics['scope']; metrics: Map<string, Merged> }>();
  for (const snapshot of snapshots) {
    for (const { scope, metrics } of snapshot) {
      const into = entry(scopes, scope.name, () => ({ scope, metrics: new Map<string, Merged>() }));
      for (const metric of metrics) {
        if (!keep(metric)) continue;
        const merged = entry(into.metrics, metric.descriptor.name, () => ({ metric, points: new Map() }));
        for (const point of metric.dataPoints as DataPoint<number | Histogram>[]) {
          const key = pointKey(point);
          const seen = merged.points.get(key);
          merged.points.set(key, seen === undefined ? point : addPoint(seen, point));
        }
      }
    }
  }
  return [...scopes.values()].map(({ scope, metrics }) => ({
    scope,
    metrics: [...metrics.values()].map(
      ({ metric, points }) => ({ ...metric, dataPoints: [...points.values()] }) as MetricData,
    ),
  }));
}

/** Primary side: the workers' metrics as one set. */
export class ClusterMetrics {
  readonly #last = new Map<Worker, ScopeMetrics[]>();
  #retired: ScopeMetrics[] = [];
  #nextId = 0;

  /** Count `worker` from now on. */
  attach(worker: Worker): void {
    this.#last.set(worker, []);
    worker.once('exit', () => {
      const last = this.#last.get(worker) ?? [];
      this.#last.delete(worker);
      this.#retired = mergeMetrics([this.#retired, last], cumulative);
    });
  }

  /** Every worker's metrics, merged (a worker slow to answer counts with its last answer). */
  async collect(): Promise<ScopeMetrics[]> {
    const workers = [...this.#last.keys()];
    const answers = await Promise.all(workers.map((worker) => this.#ask(worker)));
    workers.forEach((worker, i) => {
      const answer = answers[i];
      if (answer !== undefined && this.#last.has(worker)) this.#last.set(worker, answer);
    });
    return mergeMetrics([this.#retired, ...workers.map((worker) => this.#last.get(worker) ?? [])]);
  }

  #ask(worker: Worker): Promise<ScopeMetrics[] | undefined> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      const done = (value: ScopeMetrics[] | undefined): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve(value);
      };
      const onMessage = (message: unknown): void => {
        const answer = message as Partial<Answer> | null;
        if (answer?.[ANSWER] === id) done(answer.scopeMetrics ?? []);
      };
      const timer = setTimeout(() => done(undefined), ANSWER_WAIT_MS);
      worker.on('message', onMessage);
      try {
        worker.send({ [ASK]: id });
      } catch {
        done(undefined);
      }
    });
  }
}
