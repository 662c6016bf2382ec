#!/usr/bin/env node
// Soak: many tools/call through `entropic-mcp serve` with the bundled example plugins (isolated hosts),
// over stdio and over Streamable HTTP, sampling the resident memory (RSS) of the serve process and of
// its plugin hosts. Prints the series and the growth from the first sample after warm-up to the last.
//   node packages/serve/bench/soak.mjs [--stdio-calls N] [--http-calls N] [--warmup N] [--inflight N] [--samples N]
// Defaults: 1,000,000 calls over stdio, 100,000 over HTTP, each after 50,000 warm-up calls that are not
// measured (V8 grows its heap to a steady size first), 64 in flight (16 over HTTP), 20 samples. The growth
// judged against the 5 % limit compares the mean RSS of the last quarter of samples with the first quarter.
// Needs the workspace build (dist/ and the example plugins' build/). Exit 1 when a call fails or growth > 5 %.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const cli = join(repo, 'packages/serve/dist/cli.js');
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const STDIO_CALLS = opt('stdio-calls', 1_000_000);
const HTTP_CALLS = opt('http-calls', 100_000);
const INFLIGHT = opt('inflight', 64);
const SAMPLES = opt('samples', 20);
const WARMUP = opt('warmup', 50_000);
const LIMIT = 5;

const plugins = readdirSync(join(repo, 'examples/plugins'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(repo, 'examples/plugins', d.name, 'build')))
  .flatMap((d) =>
    readdirSync(join(repo, 'examples/plugins', d.name, 'build'))
      .filter((f) => f.endsWith('.so'))
      .map((f) => join(repo, 'examples/plugins', d.name, 'build', f)),
  );
if (plugins.length === 0) {
  console.error('soak: no example plugins built (run pnpm exec turbo run build)');
  process.exit(2);
}
const root = mkdtempSync(join(tmpdir(), 'entropic-soak-'));
writeFileSync(join(root, 'note.txt'), 'soak test file\n');

/** The calls cycled through: every example plugin's tools, with arguments each accepts. */
const CALLS = [
  ['echo.echo', { text: 'hello soak' }],
  ['cpp-hello.greet', { name: 'soak' }],
  ['cpp-hello.word_count', { text: 'one two three four' }],
  ['echo.stop', { reason: 'done' }],
  ['files.read', { path: 'note.txt' }],
  ['files.list', { path: '.' }],
];
const body = (id) => {
  const [name, args] = CALLS[id % CALLS.length];
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
};

function rssKiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function children(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
      readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}
function sample(pid) {
  const hosts = children(pid);
  return { server: rssKiB(pid), hosts: hosts.reduce((s, p) => s + rssKiB(p), 0), hostCount: hosts.length };
}

/** Runs `total` calls with `inflight` at once through `call(id)`, sampling RSS `SAMPLES` times. */
async function drive(label, pid, total, inflight, call) {
  let warm = 0;
  const warmers = Array.from({ length: inflight }, async () => {
    while (warm < WARMUP) await call(10_000_000 + warm++);
  });
  await Promise.all(warmers);
  const every = Math.max(1, Math.floor(total / SAMPLES));
  const series = [];
  let next = 0;
  let done = 0;
  let failed = 0;
  const started = Date.now();
  async function worker() {
    while (next < total) {
      const id = next++;
      const result = await call(id);
      if (result?.isError || result === undefined) failed++;
      done++;
      if (done % every === 0) series.push({ calls: done, ...sample(pid) });
    }
  }
  await Promise.all(Array.from({ length: inflight }, worker));
  const seconds = (Date.now() - started) / 1000;
  const base = series[0];
  const last = series.at(-1);
  const rssOf = (s) => s.server + s.hosts;
  const pct = (a, b) => ((b - a) / a) * 100;
  // RSS swings a few per cent with each major GC; the judged figure compares the mean of the first
  // quarter of samples with the mean of the last quarter, so one sample at a GC peak cannot decide.
  const quarter = Math.max(1, Math.floor(series.length / 4));
  const mean = (list) => list.reduce((sum, s) => sum + rssOf(s), 0) / list.length;
  const growth = pct(mean(series.slice(0, quarter)), mean(series.slice(-quarter)));
  console.log(
    `\n${label}: ${WARMUP} warm-up calls, then ${done} calls in ${seconds.toFixed(1)} s (${Math.round(done / seconds)}/s), ${failed} failed`,
  );
  console.log('   calls   serve RSS KiB   hosts RSS KiB (count)');
  for (const s of series) {
    console.log(
      `${String(s.calls).padStart(8)} ${String(s.server).padStart(15)} ${String(s.hosts).padStart(15)} (${s.hostCount})`,
    );
  }
  console.log(
    `${label}: RSS first to last sample: serve ${pct(base.server, last.server).toFixed(2)} %, serve + hosts ${pct(rssOf(base), rssOf(last)).toFixed(2)} %`,
  );
  console.log(
    `${label}: RSS growth, mean of the last ${quarter} samples over the first ${quarter}: ${growth.toFixed(2)} % (limit ${LIMIT} %)`,
  );
  return { failed, growth };
}

/** SOAK_NODE_FLAGS (e.g. `--trace-gc`) go to the serve process; SOAK_SERVE_LOG names a file for its stderr. */
function startServe(extra) {
  const flags = (process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const args = [...flags, cli, 'serve', ...plugins.flatMap((p) => ['--plugin', p]), '--root', root, ...extra];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  if (process.env.SOAK_SERVE_LOG) child.stderr.pipe(createWriteStream(process.env.SOAK_SERVE_LOG));
  return child;
}

async function soakStdio() {
  const child = startServe([]);
  child.stderr.resume();
  const waiting = new Map();
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const msg = JSON.parse(line);
      const done = waiting.get(msg.id);
      if (done) {
        waiting.delete(msg.id);
        done(msg.result ?? { isError: true, error: msg.error });
      }
    }
  });
  const call = (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  await call({
    jsonrpc: '2.0',
    id: -1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
  });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const out = await drive('stdio', child.pid, STDIO_CALLS, INFLIGHT, (id) => call(body(id)));
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  return out;
}

async function soakHttp() {
  const child = startServe(['--http', '127.0.0.1:0']);
  const url = await new Promise((ok, fail) => {
    let text = '';
    child.stderr.on('data', (c) => {
      text += c;
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m) ok(new URL(m[1]));
    });
    child.once('exit', () => fail(new Error(`serve exited:\n${text}`)));
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let session;
  const post = (message) =>
    new Promise((ok, fail) => {
      const data = JSON.stringify(message);
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(data),
      };
      if (session)
        Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      const req = request(url, { method: 'POST', agent, headers }, (res) => {
        session ??= res.headers['mcp-session-id'];
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => {
          const line = text.split('\n').find((l) => l.startsWith('data: {'));
          const msg = line ? JSON.parse(line.slice(6)) : undefined;
          ok(msg?.result ?? (message.id === undefined ? {} : { isError: true }));
        });
      });
      req.on('error', fail);
      req.end(data);
    });
  await post({
    jsonrpc: '2.0',
    id: -1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const out = await drive('http', child.pid, HTTP_CALLS, Math.min(INFLIGHT, 16), (id) => post(body(id)));
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return out;
}

console.log(`soak: ${plugins.length} example plugins: ${plugins.map((p) => p.split('/').at(-1)).join(', ')}`);
const results = [];
if (STDIO_CALLS > 0) results.push(await soakStdio());
if (HTTP_CALLS > 0) results.push(await soakHttp());
const bad = results.some((r) => r.failed > 0 || r.growth > LIMIT);
console.log(`\nsoak: ${bad ? 'FAILED' : 'passed'}`);
process.exit(bad ? 1 : 0);
