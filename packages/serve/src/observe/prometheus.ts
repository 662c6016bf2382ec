/**
 * `--metrics HOST:PORT`: the Prometheus text of the metrics at `/metrics`, on a listener of its own (never the
 * MCP port). Names follow the OpenTelemetry-to-Prometheus rules: dots become underscores, the unit becomes a
 * suffix (`mcp.server.operation.duration` in seconds is `mcp_server_operation_duration_seconds`), counters end
 * in `_total`; the text itself is written by the OpenTelemetry Prometheus exporter's serializer.
 */
import { createServer, type Server } from 'node:http';
import type { MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { isLoopback } from '../config/loopback.js';

/** Prometheus's names for the units we use; an annotation (`{request}`) adds no suffix. */
const UNIT_SUFFIX: Readonly<Record<string, string>> = {
  s: 'seconds',
  ms: 'milliseconds',
  By: 'bytes',
};

/** The metric under the name Prometheus expects for its unit (and without the unit, which the name now says). */
function withUnitSuffix(metric: MetricData): MetricData {
  const suffix = UNIT_SUFFIX[metric.descriptor.unit];
  const unit = '';
  if (suffix === undefined) return { ...metric, descriptor: { ...metric.descriptor, unit } };
  const name = metric.descriptor.name.endsWith(`.${suffix}`)
    ? metric.descriptor.name
    : `${metric.descriptor.name}.${suffix}`;
  return { ...metric, descriptor: { ...metric.descriptor, name, unit } };
}

let serializer: { serialize(metrics: ResourceMetrics): string } | undefined;

/** The Prometheus text exposition (format 0.0.4) of `metrics`. */
export async function prometheusText(metrics: ResourceMetrics): Promise<string> {
  if (serializer === undefined) {
    const { PrometheusSerializer } = await import('@opentelemetry/exporter-prometheus');
    serializer = new PrometheusSerializer('', false);
  }
  return serializer.serialize({
    resource: metrics.resource,
    scopeMetrics: metrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map(withUnitSuffix),
    })),
  });
}

/**
 * The start-up warning for an endpoint bound where other machines reach it (it has no authentication), or
 * undefined on a loopback address.
 */
export function exposedMetricsWarning(host: string, url: string): string | undefined {
  if (isLoopback(host)) return undefined;
  return (
    `warning: the metrics endpoint ${url} is bound to ${host}, reachable from other machines, and has no ` +
    'authentication: anyone who reaches it reads the metrics (tool and prompt names, request rates, errors); ' +
    'bind it to 127.0.0.1 (--metrics 127.0.0.1:PORT), or let only your Prometheus reach it (a firewall, or a ' +
    'proxy that authenticates)'
  );
}

export interface MetricsEndpoint {
  /** `http://HOST:PORT/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Serve `render()` at `GET /metrics` on `host:port` (port 0 picks one). */
export async function serveMetrics(
  host: string,
  port: number,
  render: () => Promise<string>,
  onError: (error: Error) => void,
): Promise<MetricsEndpoint> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain' })
        .end('serve /metrics only\n');
      return;
    }
    render().then(
      (text) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text),
      (error: Error) => {
        onError(error);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onError);
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
