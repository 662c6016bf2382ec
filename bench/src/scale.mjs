// Scale workloads: `serve --workers 1|2` behind a real HAProxy on a real Redis (CPU-bound 1 ms tool and echo),
// and the server CPU per legacy call with the Redis store against the in-memory one. Prints figures and ratios.
// Usage: node bench/src/scale.mjs [--seconds S] [--clients N]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'packages', 'loader', 'dist', 'cli.js');
const TOOLS = join(ROOT, 'bench', 'servers', 'scale-tools.mjs');
const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 5);
const CLIENTS = Number(values.clients ?? 16);
const children = [];
const dir = mkdtempSync(join(tmpdir(), 'emcp-scale-'));

const freePort = () =>
  new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

function start(cmd, args, ready) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  return new Promise((ok, fail) => {
    const look = (chunk) => {
      text += chunk.toString();
      if (ready.test(text)) ok(child);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => fail(new Error(`${cmd} exited ${code}:\n${text}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function post(port, body, session) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  return new Promise((ok, fail) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => ok({ status: res.statusCode, session: res.headers['mcp-session-id'], data }));
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

async function sessions(port, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const init = {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    };
    const r = await post(port, { jsonrpc: '2.0', id: 0, method: 'initialize', params: init });
    await post(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, r.session);
    out.push(r.session);
  }
  return out;
}

/** Each session keeps one call in flight for `seconds`; returns calls per second. */
async function load(port, ids, tool, seconds) {
  let calls = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    ids.map(async (session) => {
      for (let id = 1; Date.now() < end; id++) {
        const r = await post(
          port,
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } },
          session,
        );
        if (r.status !== 200 || !r.data.includes('"result"'))
          throw new Error(`bad answer ${r.status} ${r.data.slice(0, 200)}`);
        calls++;
      }
    }),
  );
  return calls / seconds;
}

const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime in clock ticks (100/s)
};

async function serve(args) {
  const port = await freePort();
  const child = await start(
    process.execPath,
    [CLI, 'serve', '--http', `127.0.0.1:${port}`, '--tools-module', TOOLS, ...args],
    /listening on|workers serving/,
  );
  return { port, child };
}

async function haproxy(backend) {
  const port = await freePort();
  const file = join(dir, `h${port}.cfg`);
  writeFileSync(
    file,
    `global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 2s\n  timeout client 10m\n  timeout server 10m\n  option http-keep-alive\nfrontend f\n  bind 127.0.0.1:${port}\n  default_backend b\nbackend b\n  balance roundrobin\n  server s0 127.0.0.1:${backend}\n`,
  );
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 100; i++) {
    if (
      await post(port, {}).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, child };
}

function stop(child) {
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', ok);
    child.kill('SIGTERM');
  });
}

try {
  const redisPort = await freePort();
  await start(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    /Ready to accept/,
  );
  const redis = `redis://127.0.0.1:${redisPort}`;
  console.log(
    `scale workloads: ${CLIENTS} legacy sessions, ${SECONDS} s per figure, through HAProxy, Redis ${redis}`,
  );
  const rate = {};
  for (const workers of [1, 2]) {
    const node = await serve(['--redis', redis, '--workers', String(workers)]);
    const lb = await haproxy(node.port);
    const ids = await sessions(lb.port, CLIENTS);
    await load(lb.port, ids, 'scale.spin', 1); // warm-up
    rate[`spin${workers}`] = await load(lb.port, ids, 'scale.spin', SECONDS);
    rate[`echo${workers}`] = await load(lb.port, ids, 'scale.echo', SECONDS);
    console.log(
      `--workers ${workers}: cpu 1 ms tool ${rate[`spin${workers}`].toFixed(0)} calls/s, echo ${rate[`echo${workers}`].toFixed(0)} calls/s`,
    );
    await stop(lb.child);
    await stop(node.child);
  }
  console.log(
    `ratio --workers 2 / --workers 1: cpu 1 ms tool ${(rate.spin2 / rate.spin1).toFixed(2)}x, echo ${(rate.echo2 / rate.echo1).toFixed(2)}x`,
  );

  const us = {};
  for (const [name, args] of [
    ['memory', []],
    ['redis', ['--redis', redis]],
  ]) {
    const node = await serve(args);
    const ids = await sessions(node.port, 64);
    await load(node.port, ids, 'scale.echo', 1);
    const before = cpuMs(node.child.pid);
    const perSecond = await load(node.port, ids, 'scale.echo', SECONDS);
    us[name] = ((cpuMs(node.child.pid) - before) * 1000) / (perSecond * SECONDS);
    console.log(
      `legacy stateful echo, 64 clients, ${name} store: ${perSecond.toFixed(0)} calls/s, server CPU ${us[name].toFixed(0)} µs/call`,
    );
    await stop(node.child);
  }
  console.log(`Redis / in-memory server CPU per call: ${(us.redis / us.memory).toFixed(2)}x`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}
