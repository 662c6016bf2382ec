/**
 * Everything `serve` does to be observable, started before the server and stopped after it: the SDK as the
 * OTEL_* variables ask, the Prometheus endpoint (`--metrics`, `mcp.metrics`), and serve's log lines about
 * plugins. With `--workers`, the primary serves the endpoint and the workers answer it (cluster-metrics.ts).
 */
import type { Worker } from 'node:cluster';
import { onPluginEvent } from '@entropic-mcp/loader/internal';
import type { ServeLog } from './log.js';
import { readOtelEnv } from './otel-env.js';
import { exposedMetricsWarning, prometheusText, serveMetrics } from './prometheus.js';
import { startSdk } from './sdk.js';

export interface Observability {
  /** The Prometheus endpoint, when this process serves one. */
  readonly metricsUrl: string | undefined;
  /** Stops the endpoint, then exports what is buffered. */
  close(): Promise<void>;
}

export interface ObserveOptions {
  readonly metrics: { readonly host: string; readonly port: number } | undefined;
  readonly log: ServeLog;
  readonly version: string;
  /** A worker of `--workers`: its metrics go to the primary, which serves the endpoint. */
  readonly worker: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The values of `OTEL_EXPORTER_OTLP_*HEADERS` (`k=v,k2=v2`, values URL-encoded): credentials, never to be
 * logged. Each value counts as it is, decoded, and word by word (`Bearer abc…` hides `abc…` alone too).
 */
function headerSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const names = [
    'OTEL_EXPORTER_OTLP_HEADERS',
    'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  ];
  const values = names.flatMap((name) =>
    (env[name] ?? '').split(',').map((pair) => pair.slice(pair.indexOf('=') + 1).trim()),
  );
  const decoded = values.map((value) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  });
  const words = decoded.flatMap((value) => value.split(/\s+/).filter((word) => word.length >= 8));
  return [...values, ...decoded, ...words].filter((value) => value !== '');
}

function logPluginEvents(log: ServeLog): () => void {
  return onPluginEvent((event) => {
    if (event.kind === 'call-failed') {
      const fields = { plugin: event.plugin, tool: event.tool, code: event.code };
      const msg = `plugin "${event.plugin}" failed on tool "${event.tool}" [${event.code}]: ${event.message}`;
      log.log('warn', msg, fields, event.span);
    } else if (event.kind === 'host-crashed') {
      log.log('error', `the host of plugin "${event.plugin}" ${event.how}`, { plugin: event.plugin });
    } else {
      log.log('info', `plugin "${event.plugin}": starting a new host`, { plugin: event.plugin });
    }
  });
}

export async function startObservability(options: ObserveOptions): Promise<Observability> {
  const env = options.env ?? process.env;
  const settings = readOtelEnv(env);
  for (const value of headerSecrets(env)) options.log.secret(value);
  const at = options.metrics ?? settings.prometheus;
  const sdk = await startSdk({ settings, pull: at !== undefined, serviceVersion: options.version });
  const stopEvents = logPluginEvents(options.log);
  const collect = sdk?.collect;
  let endpoint: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  if (collect !== undefined && options.worker)
    (await import('./cluster-metrics.js')).answerMetricRequests(collect);
  else if (collect !== undefined && at !== undefined) {
    endpoint = await serveMetrics(
      at.host,
      at.port,
      async () => prometheusText(await collect()),
      (error) => options.log.log('error', `metrics endpoint: ${error.message}`),
    );
    const exposed = exposedMetricsWarning(at.host, endpoint.url);
    if (exposed !== undefined) options.log.log('warn', exposed);
  }
  return {
    metricsUrl: endpoint?.url,
    close: async () => {
      stopEvents();
      await endpoint?.close();
      await sdk?.shutdown();
    },
  };
}

export interface ClusterEndpoint {
  readonly url: string;
  /** Count this worker's metrics (call once per fork). */
  attach(worker: Worker): void;
  close(): Promise<void>;
}

/** The primary's endpoint under `--workers`: every worker's metrics, added up. */
export async function serveClusterMetrics(
  at: { readonly host: string; readonly port: number },
  log: ServeLog,
  version: string,
): Promise<ClusterEndpoint> {
  const { ClusterMetrics } = await import('./cluster-metrics.js');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const cluster = new ClusterMetrics();
  const resource = resourceFromAttributes({
    'service.name': process.env.OTEL_SERVICE_NAME ?? 'entropic-mcp',
    'service.version': version,
  });
  const endpoint = await serveMetrics(
    at.host,
    at.port,
    async () => prometheusText({ resource, scopeMetrics: await cluster.collect() }),
    (error) => log.log('error', `metrics endpoint: ${error.message}`),
  );
  const exposed = exposedMetricsWarning(at.host, endpoint.url);
  if (exposed !== undefined) log.log('warn', exposed);
  return { url: endpoint.url, attach: (worker) => cluster.attach(worker), close: () => endpoint.close() };
}
