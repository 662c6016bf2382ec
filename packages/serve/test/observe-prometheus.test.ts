/**
 * `serve --metrics` read by real parts: a real Prometheus scrapes a serve process and its query API returns the
 * counts of what a client did (tools/call operations, plugin calls, a host crash and restart, a session); with
 * `--workers 2` one endpoint on the primary adds up both workers and keeps a killed worker's counts; with only
 * `mcp.metrics` in the config file (no `--metrics`) the endpoint is served where the file says.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { SCALE_TOOLS } from '@entropic-mcp/test-kit/cluster';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { callTool, openLegacySession } from '@entropic-mcp/test-kit/raw-mcp';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrometheusProcess, startPrometheus } from './support/prometheus.js';
import {
  alive,
  buildFixture,
  CLI,
  type HttpServer,
  newClient,
  startHttp,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

const dir = tempDir('observe-prom');
let prometheus: PrometheusProcess | undefined;
let server: HttpServer | undefined;
let redis: RedisProcess | undefined;

afterAll(async () => {
  await prometheus?.stop();
  await server?.stop();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --metrics scraped by a real Prometheus', () => {
  let metricsPort = 0;

  beforeAll(async () => {
    metricsPort = await freePort();
    const plugin = buildFixture(dir, 'fx');
    server = await startHttp(['--plugin', plugin, '--metrics', `127.0.0.1:${metricsPort}`]);
    prometheus = await startPrometheus([`127.0.0.1:${metricsPort}`]);
  }, 60_000);

  it('returns the tools/call, plugin and session counts of a known run through its query API', async () => {
    const prom = prometheus as PrometheusProcess;
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL((server as HttpServer).url));
    await client.connect(transport);
    for (let i = 0; i < 5; i++) await client.callTool({ name: 'fx.echo', arguments: { text: `n${i}` } });
    const crashed = await client.callTool({ name: 'fx.crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(await client.callTool({ name: 'fx.echo', arguments: { text: 'again' } }))).toBe('again');

    await prom.waitForValue(
      'sum(mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"})',
      7,
    );
    await prom.waitForValue(
      'sum(mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",error_type="tool_error"})',
      1,
    );
    await prom.waitForValue('sum(mcp_plugin_call_duration_seconds_count{entropic_plugin_name="fx"})', 7);
    await prom.waitForValue(
      'sum(mcp_plugin_call_duration_seconds_count{error_type="ENTROPIC_PLUGIN_CRASHED"})',
      1,
    );
    await prom.waitForValue('sum(mcp_plugin_host_crashes_total{entropic_plugin_name="fx"})', 1);
    await prom.waitForValue('sum(mcp_plugin_host_restarts_total{entropic_plugin_name="fx"})', 1);
    await prom.waitForValue('sum(mcp_server_session_active)', 1);
    await prom.waitForValue('sum(mcp_server_request_active)', 0);
    await transport.terminateSession();
    await client.close();
    await prom.waitForValue('sum(mcp_server_session_active)', 0);
    await prom.waitForValue('sum(mcp_server_session_duration_seconds_count)', 1);
    // The convention's buckets, in seconds.
    await prom.waitForValue(
      'count(mcp_server_operation_duration_seconds_bucket{mcp_method_name="initialize"})',
      15,
    );
  });

  it('serves nothing but /metrics on that listener, and never on the MCP port', async () => {
    const other = await fetch(`http://127.0.0.1:${metricsPort}/mcp`);
    expect(other.status).toBe(404);
    const onMcp = await fetch(new URL('/metrics', (server as HttpServer).url));
    expect(onMcp.status).toBe(404);
  });
});

/** The summed value of a metric's series in Prometheus text, from the endpoint at `url`. */
async function scraped(url: string, series: RegExp): Promise<number> {
  const text = await (await fetch(url)).text();
  let sum = 0;
  for (const line of text.split('\n'))
    if (series.test(line)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

describe('serve --workers 2 --metrics', () => {
  it('adds up both workers at one endpoint, and keeps a killed worker’s counts', async () => {
    redis = await startRedis();
    const [listen, metricsPort] = [await freePort(), await freePort()];
    const args = ['serve', '--http', `127.0.0.1:${listen}`, '--workers', '2', '--redis', redis.url];
    args.push('--tools-module', SCALE_TOOLS, '--metrics', `127.0.0.1:${metricsPort}`);
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    const calls = /^mcp_server_operation_duration_seconds_count\{[^}]*mcp_method_name="tools\/call"/;
    try {
      await waitFor(() => /2 workers serving/.test(stderr), 60_000, 'both workers');
      const endpoint = `http://127.0.0.1:${listen}/mcp`;
      const session = await openLegacySession(endpoint);
      const pids = new Map<number, number>();
      // A new connection per request: node:cluster hands connections to the workers in turn.
      for (let id = 1; id <= 8; id++) {
        const pid = Number(
          textOf((await callTool(endpoint, session, id, 'scale.pid')).message?.result).split(':')[0],
        );
        pids.set(pid, (pids.get(pid) ?? 0) + 1);
      }
      expect(pids.size).toBe(2);
      expect(await scraped(metrics, calls)).toBe(8);
      const [victim] = [...pids.keys()];
      process.kill(victim as number, 'SIGKILL');
      await waitFor(() => !alive(victim as number) && /worker \d died/.test(stderr), 20_000, 'the kill');
      await waitFor(() => /starting another/.test(stderr), 20_000, 'a new worker');
      // The dead worker's 8 - n calls are still counted; new calls add to them.
      expect(await scraped(metrics, calls)).toBe(8);
      for (let id = 9; id <= 12; id++) await callTool(endpoint, session, id, 'scale.pid');
      expect(await scraped(metrics, calls)).toBe(12);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

describe('serve with mcp.metrics in the config file and no --metrics', () => {
  it('serves /metrics on the address the file names, counting the calls made', async () => {
    const metricsPort = await freePort();
    const config = `${dir}/metrics.yaml`;
    writeFileSync(
      config,
      `mcp:\n  plugins: [${JSON.stringify(buildFixture(dir, 'fx', 'libfx-config.so'))}]\n  metrics: "127.0.0.1:${metricsPort}"\n`,
    );
    const fromFile = await startHttp(['--config', config]);
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(fromFile.url)));
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'fx.echo', arguments: { text: 'm' } });
      const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
      const calls = /^mcp_server_operation_duration_seconds_count\{[^}]*mcp_method_name="tools\/call"/;
      expect(await scraped(metrics, calls)).toBe(3);
    } finally {
      await client.close();
      await fromFile.stop();
    }
  }, 60_000);
});
