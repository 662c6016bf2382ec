#!/usr/bin/env node
// Draws a real trace as text, no collector needed: receives OTLP/HTTP JSON on a local port, runs
// `entropic-mcp serve` with the example echo plugin over HTTP with the OTEL_* variables pointing there, makes one
// traced tools/call (its `_meta.traceparent` names a client span) and prints the spans of that trace as a
// waterfall, children under their parents.
//   node scripts/trace-waterfall.mjs [--isolation process|none]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { isolation: { type: 'string', default: 'process' } } });
const build = join(root, 'examples', 'plugins', 'echo', 'build');
const plugin = join(build, readdirSync(build).find((f) => f.endsWith('.so')) ?? 'echo.so');

const spans = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    if (req.url === '/v1/traces') {
      for (const rs of JSON.parse(body).resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push(s);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));

const serve = spawn(
  process.execPath,
  [
    join(root, 'packages/serve/dist/cli.js'),
    'serve',
    '--http',
    '127.0.0.1:0',
    '--plugin',
    plugin,
    '--isolation',
    values.isolation,
  ],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.address().port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
  },
);
let stderr = '';
const url = await new Promise((resolveUrl, reject) => {
  serve.stderr.on('data', (chunk) => {
    stderr += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(stderr);
    if (match) resolveUrl(match[1]);
  });
  serve.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${stderr}`)));
});

let session;
async function post(message) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  session ??= res.headers.get('mcp-session-id') ?? undefined;
  return res.text();
}
const traceId = randomBytes(16).toString('hex');
const clientSpan = randomBytes(8).toString('hex');
const info = { name: 'trace-waterfall', version: '1' };
await post({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info },
});
await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
const _meta = { traceparent: `00-${traceId}-${clientSpan}-01` };
await post({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'echo.echo', arguments: { text: 'hi' }, _meta },
});

const deadline = Date.now() + 30_000;
while (spans.filter((s) => s.traceId === traceId).length < 2 && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 50));
serve.kill('SIGTERM');
await new Promise((r) => serve.once('exit', r));
receiver.close();

const trace = spans.filter((s) => s.traceId === traceId);
if (trace.length === 0) {
  console.error(`no span of trace ${traceId} arrived within 30 s; serve said:\n${stderr}`);
  process.exit(1);
}
const ns = (t) => BigInt(t);
const byTime = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const start = trace.map((s) => ns(s.startTimeUnixNano)).sort(byTime)[0];
const end = trace
  .map((s) => ns(s.endTimeUnixNano))
  .sort(byTime)
  .at(-1);
const width = 40;
const total = Number(end - start) || 1;
const KIND = ['', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const lines = [`trace ${traceId} (the client's span ${clientSpan} is the root, outside this process)`];
const draw = (parent, depth) => {
  for (const span of trace.filter((s) => (s.parentSpanId || undefined) === parent)) {
    const from = Math.round((Number(ns(span.startTimeUnixNano) - start) / total) * width);
    const to = Math.max(from + 1, Math.round((Number(ns(span.endTimeUnixNano) - start) / total) * width));
    const bar = `${' '.repeat(from)}${'█'.repeat(to - from)}`.padEnd(width);
    const ms = (Number(ns(span.endTimeUnixNano) - ns(span.startTimeUnixNano)) / 1e6).toFixed(2);
    const label = `${'  '.repeat(depth)}${span.name}`.padEnd(34);
    lines.push(`${label} ${KIND[span.kind].padEnd(8)} │${bar}│ ${ms.padStart(6)} ms`);
    const attrs = (span.attributes ?? []).map((a) => `${a.key}=${Object.values(a.value)[0]}`);
    let line = '';
    for (const attr of attrs) {
      if (line !== '' && line.length + attr.length > 70) {
        lines.push(`${' '.repeat(36)}${line}`);
        line = '';
      }
      line = line === '' ? attr : `${line} ${attr}`;
    }
    if (line !== '') lines.push(`${' '.repeat(36)}${line}`);
    draw(span.spanId, depth + 1);
  }
};
draw(clientSpan, 0);
console.log(lines.join('\n'));
