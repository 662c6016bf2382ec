// The headline table of a run: one line per workload, our figure beside the SDKs' and the ceiling's.
const MiB = 2 ** 20;
const int = (n) => Math.round(n).toLocaleString('en-US');

function pick(result, id, target) {
  const row = result.tables.find((t) => t.id === id)?.rows.find((r) => r?.target === target);
  return row?.perSecond ? row : undefined;
}

const LINES = [
  ['stdio, 1 in flight', 'stdio-1', 'entropic', true],
  ['stdio, 64 in flight, batching client', 'stdio-64', 'entropic'],
  ['stdio, 64 in flight, per-message client', 'stdio-64-each', 'entropic'],
  ['stdio, C plugin isolated, 1 in flight', 'stdio-1', 'plugin-isolated', true],
  ['stdio, C plugin in-process, 1 in flight', 'stdio-1', 'plugin-inprocess', true],
  ['stdio, C plugin isolated, 64 in flight, batching client', 'stdio-64', 'plugin-isolated'],
  ['stdio, C plugin isolated, 64 in flight, per-message client', 'stdio-64-each', 'plugin-isolated'],
  ['stdio, C plugin in-process, 64 in flight, batching client', 'stdio-64', 'plugin-inprocess'],
  ['stdio, C plugin in-process, 64 in flight, per-message client', 'stdio-64-each', 'plugin-inprocess'],
  [
    'stdio, TS echo answering next turn, through serve, 64 in flight, batching client',
    'stdio-64',
    'serve-ts-async',
  ],
  [
    'stdio, TS echo answering next turn, through serve, 64 in flight, per-message client',
    'stdio-64-each',
    'serve-ts-async',
  ],
  ['HTTP stateful SSE, 1 client', 'http-sse-1', 'entropic', true],
  ['HTTP stateful SSE, 64 clients', 'http-sse-64', 'entropic'],
  ['HTTP stateful SSE, C plugin isolated, 1 client', 'http-sse-1', 'plugin-isolated', true],
  ['HTTP stateful SSE, TS echo through serve --http, 64 clients', 'http-sse-64', 'serve-ts'],
  ['HTTP stateful SSE, C plugin isolated, 64 clients', 'http-sse-64', 'plugin-isolated'],
  ['HTTP stateful JSON, 64 clients', 'http-json-64', 'entropic'],
  ['HTTP stateless, 64 clients', 'http-stateless-64', 'entropic'],
  ['2026-07-28 stdio, 1 in flight', 'stdio-modern-1', 'entropic', true],
  ['2026-07-28 stdio, 64 in flight, batching client', 'stdio-modern-64', 'entropic'],
  ['2026-07-28 stdio, 64 in flight, per-message client', 'stdio-modern-64-each', 'entropic'],
  ['2026-07-28 HTTP, 1 client', 'http-modern-1', 'entropic', true],
  ['2026-07-28 HTTP, 64 clients', 'http-modern-64', 'entropic'],
];

/** Server CPU µs per call, with the plugin host's beside it when the server started one. */
export function cpuPerCall(row) {
  const host = row.hostCpuPerCallUs;
  const own = row.serverCpuPerCallUs.toFixed(1);
  return host >= 0.05 ? `${own} (+${host.toFixed(1)} host)` : own;
}

/** Our figure (`ours`: with its CPU per call even at 1 in flight) or a baseline's. */
function cell(row, latency, ours) {
  if (!row) return '–';
  const host = row.hostCpuPerCallUs >= 0.05 ? ` + ${row.hostCpuPerCallUs.toFixed(1)} µs host` : '';
  const cpu = `${row.serverCpuPerCallUs.toFixed(1)} µs CPU${host}`;
  if (latency) return `${int(row.perSecond)}/s, p50 ${int(row.p50us)} µs${ours ? ` (${cpu})` : ''}`;
  return `${int(row.perSecond)}/s (${cpu})`;
}

export function renderSummary(result) {
  const lines = [
    '| echo `tools/call` | entropic-mcp | SDK v1 | SDK v2 | ceiling | × SDK v1 | × SDK v2 | × ceiling | × TS echo |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const ratio = (a, b) => (a && b ? `${(a.perSecond / b.perSecond).toFixed(2)}×` : '–');
  for (const [label, id, target, latency] of LINES) {
    const ours = pick(result, id, target);
    if (!ours && !pick(result, id, 'bare')) continue;
    const v1 = pick(result, id, 'sdk-v1');
    const v2 = pick(result, id, 'sdk-v2');
    const bare = pick(result, id, 'bare');
    const ts = target === 'entropic' ? undefined : pick(result, id, 'entropic');
    lines.push(
      `| ${label} | ${cell(ours, latency, true)} | ${cell(v1, latency)} | ${cell(v2, latency)} | ${cell(bare, latency)} | ` +
        `${ratio(ours, v1)} | ${ratio(ours, v2)} | ${ratio(ours, bare)} | ${ratio(ours, ts)} |`,
    );
  }
  for (const [label, prefix] of [
    ['peak RSS, stdio workloads', 'stdio-'],
    ['peak RSS, HTTP workloads', 'http-'],
  ]) {
    const peak = (target) => {
      const peaks = result.tables
        .filter((t) => t.id.startsWith(prefix))
        .map((t) => t.rows.find((r) => r?.target === target)?.peakRss)
        .filter(Boolean);
      return peaks.length ? `${(Math.max(...peaks) / MiB).toFixed(0)} MiB` : '–';
    };
    lines.push(
      `| ${label} | ${peak('entropic')} | ${peak('sdk-v1')} | ${peak('sdk-v2')} | ${peak('bare')} | | | | |`,
    );
  }
  const spin = (name) => pick(result, 'instances', name);
  const x1 = spin('spin-x1');
  const x2 = spin('spin-x2');
  if (x1 && x2) {
    lines.push(
      '',
      `CPU-bound C plugin tool (2 ms of CPU a call, 8 in flight, stdio): one instance ${int(x1.perSecond)}/s, ` +
        `\`--instances 2\` ${int(x2.perSecond)}/s (${(x2.perSecond / x1.perSecond).toFixed(2)}×).`,
    );
  }
  lines.push(
    '',
    "Our figures carry the server's CPU time per call in brackets (all its threads; an isolated plugin's host " +
      'process beside it as "+N host"); the C plugin rows are `entropic-mcp serve` with the example echo plugin, ' +
      'the "through serve" row is the TypeScript echo tool served by `entropic-mcp serve --http --tools-module`, ' +
      'and × TS echo compares them with the TypeScript echo tool of the same run and client. Over stdio at 64 in ' +
      'flight the batching client writes all the requests it sends at one moment in one `write`; the per-message ' +
      'client writes one message per `write`, as the official SDK clients do (at 1 in flight both write one).',
  );
  return lines.join('\n');
}
