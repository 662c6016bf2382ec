// What OpenTelemetry costs a call (issue 25). The TS echo over stdio as the server was before its telemetry
// ("today", built from git by baseline.mjs), with the API alone and no SDK registered (what every user gets),
// and with the SDK on (spans through a batching OTLP exporter, metrics through a periodic reader, both to a
// local sink); then the C echo plugin through `serve` without and with the OTEL_* variables set. Same rounds
// and clients as the stdio workload; the cost table takes the differences in server CPU per call.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { baselineCommit, baselineServer } from '../baseline.mjs';
import { benchDir, echoPlugin, rootDir } from '../targets.mjs';
import { stdioWorkload } from './stdio.mjs';

const node = process.execPath;
const echo = { tool: 'echo', arguments: { text: 'hello' }, expect: 'hello' };
const script = `${benchDir}servers/telemetry-echo.mjs`;
const loaderCli = `${rootDir}packages/serve/dist/cli.js`;

/** The "today" target: the TS echo on the server built from before the telemetry (skipped, saying why, if it cannot be built). */
export function todayTarget(ref) {
  let dist;
  let reason;
  let commit = '?';
  try {
    commit = baselineCommit(ref);
    dist = baselineServer(commit);
  } catch (error) {
    reason = `baseline not built: ${error.message.split('\n')[0]}`;
  }
  return {
    name: 'entropic-today',
    label: `TS echo, the server before its telemetry (${commit})`,
    command: node,
    args: [script],
    env: dist === undefined ? {} : { ENTROPIC_BENCH_SERVER: dist },
    ...echo,
    skip: () => reason,
  };
}

async function startSink() {
  const child = spawn(node, [`${benchDir}servers/otlp-sink.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const [first] = await once(child.stdout, 'data');
  return {
    url: `http://127.0.0.1:${Number.parseInt(first, 10)}`,
    async stop() {
      let said = '';
      child.stdout.on('data', (text) => {
        said += text;
      });
      child.kill('SIGTERM');
      await once(child, 'exit');
      return said.trim();
    },
  };
}

function pluginTarget(name, label, env) {
  const so = echoPlugin();
  return {
    name,
    label,
    command: node,
    args: [loaderCli, 'serve', '--stdio', '--plugin', so ?? 'echo'],
    env,
    ...echo,
    tool: 'echo.echo',
    skip: () => (so === undefined ? 'not built: examples/plugins/echo/build/*.so' : undefined),
  };
}

export async function telemetryWorkload(opts, log) {
  const sink = await startSink();
  const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
  const targets = [
    todayTarget(opts.baseline),
    {
      name: 'entropic-api',
      label: 'TS echo, OpenTelemetry API only (no SDK)',
      command: node,
      args: [script],
      ...echo,
    },
    {
      name: 'entropic-sdk',
      label: 'TS echo, SDK on (batching OTLP span exporter, periodic metric reader)',
      command: node,
      args: [script],
      env: { ...otlp, ENTROPIC_BENCH_OTEL: '1' },
      ...echo,
    },
    pluginTarget('plugin-api', 'serve, C echo plugin isolated, no OTEL_* set', {}),
    pluginTarget('plugin-sdk', 'serve, C echo plugin isolated, OTEL_* set (spans and metrics over OTLP)', {
      ...otlp,
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
    }),
  ];
  let tables;
  try {
    tables = await stdioWorkload(targets, opts, log);
  } finally {
    log(`  otlp sink: ${await sink.stop()}`);
  }
  const renamed = tables.map((table) => ({
    ...table,
    id: table.id.replace(/^stdio/, 'telemetry'),
    title: table.title.replace('stdio echo tools/call', 'OpenTelemetry cost: stdio echo tools/call'),
  }));
  return [...renamed, costTable(renamed)];
}

/** Per measurement: the API-only run against today, and what the SDK adds to a call. */
function costTable(tables) {
  const rows = [];
  for (const table of tables) {
    const get = (name) => table.rows.find((row) => row?.target === name && row.perSecond);
    const [today, api, sdk, pluginApi, pluginSdk] = [
      'entropic-today',
      'entropic-api',
      'entropic-sdk',
      'plugin-api',
      'plugin-sdk',
    ].map(get);
    const ratio = (a, b) => (a && b ? `${(a.perSecond / b.perSecond).toFixed(2)}×` : '–');
    const cost = (a, b) =>
      a && b
        ? `${(a.serverCpuPerCallUs - b.serverCpuPerCallUs).toFixed(1)} µs (${b.serverCpuPerCallUs.toFixed(1)} → ${a.serverCpuPerCallUs.toFixed(1)})`
        : '–';
    rows.push({
      measurement: table.id.replace('telemetry-', ''),
      apiVsToday: ratio(api, today),
      cpuApiVsToday: cost(api, today),
      sdkCost: cost(sdk, api),
      sdkRatio: ratio(sdk, api),
      pluginSdkCost: cost(pluginSdk, pluginApi),
      pluginSdkRatio: ratio(pluginSdk, pluginApi),
    });
  }
  return {
    id: 'telemetry-cost',
    kind: 'telemetry-cost',
    title: 'OpenTelemetry cost per call (server CPU)',
    rows,
  };
}
