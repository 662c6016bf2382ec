#!/usr/bin/env node
// Echo tools/call over HTTP: @entropic-mcp/server/http (SSE and JSON responses) beside a bare
// node:http echo (parse the body, answer JSON: the practical ceiling). The server runs in a child
// process; this process is the load generator (N raw keep-alive connections, one call in flight
// on each). Besides calls/s it prints the server process's CPU time per call (from /proc), which
// moves far less with the machine's load.
//
//   pnpm --filter @entropic-mcp/server build && node packages/server/bench/http-echo.mjs [--calls 20000] [--warmup 2000]
//   ... --only bare|sse|json|http-only [--concurrency 64]
//   ... --only json --middleware 0,3 --rounds 3   (interleaved: 0 then 3 middlewares, three times over)
//
// `http-only` is a diagnostic: the HTTP layer in JSON mode with a stand-in server that answers from
// onmessage, to tell the HTTP layer's cost from the protocol core's.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};

async function serve(mode) {
  let url;
  if (mode === 'bare') {
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const msg = JSON.parse(Buffer.concat(chunks).toString());
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: msg.id,
          result: { content: [{ type: 'text', text: msg.params.arguments.text }] },
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${server.address().port}/mcp`;
  } else if (mode === 'http-only') {
    // The HTTP layer alone: a stand-in server answers each tools/call from onmessage, no protocol core.
    const { serveHttp } = await import('../dist/http/index.js');
    const echoCore = {
      async connect(transport) {
        transport.onmessage = (m) => {
          if (m.id === undefined) return;
          const result =
            m.method === 'initialize'
              ? {
                  protocolVersion: '2025-11-25',
                  capabilities: {},
                  serverInfo: { name: 'stand-in', version: '1' },
                }
              : { content: [{ type: 'text', text: m.params.arguments.text }] };
          transport.send({ jsonrpc: '2.0', id: m.id, result }, { relatedRequestId: m.id });
        };
        await transport.start();
      },
    };
    const handle = await serveHttp(echoCore, { enableJsonResponse: true, keepAliveTimeout: 60_000 });
    url = handle.url;
  } else {
    const { McpServer } = await import('../dist/index.js');
    const { serveHttp } = await import('../dist/http/index.js');
    const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, { maxConcurrency: 64 });
    addMiddleware(mcp, Number(args[2] ?? '0'));
    mcp.addTool(
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
      (a) => ({ content: [{ type: 'text', text: a.text }] }),
    );
    const handle = await serveHttp(mcp, { enableJsonResponse: mode === 'json', keepAliveTimeout: 60_000 });
    url = handle.url;
  }
  process.on('SIGINT', () => process.exit(0));
  process.stdout.write(`${url}\n`);
}

/**
 * `count` pass-through middlewares of the kinds users add: one around every request (timing), one matched
 * by method that reads the params, one matched by tool that copies the result.
 */
function addMiddleware(mcp, count) {
  let spent = 0;
  const kinds = [
    async (_ctx, next) => {
      const t0 = performance.now();
      const result = await next();
      spent += performance.now() - t0;
      return result;
    },
    [
      { method: 'tools/call' },
      (ctx, next) => {
        if (typeof ctx.params?.name !== 'string') throw new Error('no tool name');
        return next();
      },
    ],
    [{ tool: 'echo' }, async (_ctx, next) => ({ ...(await next()) })],
  ];
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length];
    if (Array.isArray(kind)) mcp.use(kind[0], kind[1]);
    else mcp.use(kind);
  }
  return () => spent;
}

function startChild(mode, middleware = 0) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean),
      fileURLToPath(import.meta.url),
      '--serve',
      mode,
      String(middleware),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve({ child, url: String(d).trim() }));
    child.once('exit', (code) => reject(new Error(`server (${mode}) exited with ${code}`)));
  });
}

/** CPU time (user + system, in clock ticks) the process has used so far; Linux /proc. */
const CLOCK_TICKS = 100;
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  if (process.env.BENCH_CPU_SPLIT) console.error(`utime ${fields[11]} stime ${fields[12]}`);
  return Number(fields[11]) + Number(fields[12]);
}

/** Parse one complete HTTP/1.1 response at the start of `buf`; undefined while incomplete. */
function parseResponse(buf) {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = buf.subarray(0, headEnd).toString('latin1');
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const bodyStart = headEnd + 4;
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (buf.length < end) return undefined;
    return { status, head, body: buf.subarray(bodyStart, end).toString(), rest: buf.subarray(end) };
  }
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    let at = bodyStart;
    let body = '';
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) return { status, head, body, rest: buf.subarray(lineEnd + 4) };
      body += buf.subarray(lineEnd + 2, lineEnd + 2 + size).toString();
      at = lineEnd + 2 + size + 2;
    }
  }
  return { status, head, body: '', rest: buf.subarray(bodyStart) };
}

/** A keep-alive HTTP/1.1 connection with one request in flight: far cheaper than http.request. */
class Conn {
  constructor(url) {
    const { hostname, port, pathname } = new URL(url);
    this.path = pathname;
    this.host = `${hostname}:${port}`;
    this.socket = connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    this.buf = Buffer.alloc(0);
    this.socket.on('data', (chunk) => {
      this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
      const r = parseResponse(this.buf);
      if (r === undefined) return;
      this.buf = r.rest;
      const done = this.done;
      this.done = undefined;
      done?.(r);
    });
  }

  post(headers, body) {
    return new Promise((resolve) => {
      this.done = resolve;
      let head = `POST ${this.path} HTTP/1.1\r\nhost: ${this.host}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
      for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
      this.socket.write(`${head}\r\n${body}`);
    });
  }
}

async function run(mode, concurrency, calls, warmup, middleware = 0) {
  const { child, url } = await startChild(mode, middleware);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const conns = Array.from({ length: concurrency }, () => new Conn(url));
  try {
    if (mode !== 'bare') {
      const init = await conns[0].post(
        headers,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'bench', version: '1' },
          },
        }),
      );
      headers['mcp-session-id'] = /\r\nmcp-session-id: *([^\r]+)/i.exec(init.head)[1];
      headers['mcp-protocol-version'] = '2025-11-25';
      await conns[0].post(headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    }
    let next = 1;
    const drive = async (total) => {
      let started = 0;
      const lane = async (conn) => {
        while (started < total) {
          started++;
          const id = next++;
          const r = await conn.post(
            headers,
            `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi ${id}"}}}`,
          );
          if (r.status !== 200 || !r.body.includes(`"hi ${id}"`))
            throw new Error(`bad answer (${r.status}): ${r.body.slice(0, 200)}`);
        }
      };
      await Promise.all(conns.map(lane));
    };
    await drive(warmup);
    const cpu0 = cpuTicks(child.pid);
    const t0 = process.hrtime.bigint();
    await drive(calls);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpuMicros = ((cpuTicks(child.pid) - cpu0) * 1e6) / CLOCK_TICKS;
    return { rate: calls / seconds, cpuPerCall: cpuMicros / calls };
  } finally {
    for (const c of conns) c.socket.destroy();
    child.kill('SIGINT');
  }
}

async function main() {
  const calls = Number(option('--calls', '20000'));
  const warmup = Number(option('--warmup', '2000'));
  const only = option('--only', undefined);
  const layers = option('--middleware', undefined);
  if (layers !== undefined) return compareMiddleware(only ?? 'json', layers, calls, warmup);
  const modes = only ? [only] : ['bare', 'sse', 'json'];
  const rows = [];
  for (const concurrency of only ? [Number(option('--concurrency', '64'))] : [1, 64]) {
    let bare;
    for (const mode of modes) {
      const result = await run(mode, concurrency, calls, warmup);
      if (mode === 'bare') bare = result;
      rows.push({ mode, concurrency, ...result, ratio: bare ? result.rate / bare.rate : undefined });
    }
  }
  const names = {
    bare: 'bare node:http echo',
    sse: 'entropic-mcp HTTP (SSE)',
    json: 'entropic-mcp HTTP (JSON)',
  };
  console.log(`echo tools/call over HTTP, ${calls} calls after ${warmup} warm-up, Node ${process.version}`);
  console.log('server                      in flight   calls/s   × bare   server CPU µs/call');
  for (const r of rows) {
    const ratio = r.ratio === undefined ? '' : r.ratio.toFixed(2);
    console.log(
      `${(names[r.mode] ?? r.mode).padEnd(28)}${String(r.concurrency).padStart(9)}${Math.round(r.rate).toString().padStart(10)}${ratio.padStart(9)}${r.cpuPerCall.toFixed(1).padStart(21)}`,
    );
  }
  console.log("(calls/s moves with the machine's load; server CPU per call is the steadier comparison)");
}

/** The same mode with each middleware count in turn, `--rounds` times over, so load drifts hit all alike. */
async function compareMiddleware(mode, layers, calls, warmup) {
  const counts = layers.split(',').map(Number);
  const rounds = Number(option('--rounds', '3'));
  const concurrency = Number(option('--concurrency', '64'));
  const runs = new Map(counts.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const n of counts) runs.get(n).push(await run(mode, concurrency, calls, warmup, n));
  }
  console.log(
    `echo tools/call over HTTP (${mode}), ${concurrency} in flight, ${calls} calls after ${warmup} warm-up, ${rounds} interleaved rounds, Node ${process.version}`,
  );
  console.log('middlewares   calls/s (each round)            median   server CPU µs/call (median)');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [n, results] of runs) {
    const rates = results.map((r) => r.rate);
    console.log(
      `${String(n).padStart(11)}   ${rates
        .map((r) => Math.round(r))
        .join(' / ')
        .padEnd(30)}${Math.round(median(rates)).toString().padStart(8)}${median(
        results.map((r) => r.cpuPerCall),
      )
        .toFixed(1)
        .padStart(29)}`,
    );
  }
}

if (args[0] === '--serve') await serve(args[1]);
else await main();
