#!/usr/bin/env node
// Echo tools/call over stdio against a child process running examples/echo-stdio.mjs.
// Prints calls/s and p50/p99 latency at 1 and 64 calls in flight (2,000 warm-up, 20,000 measured).
//   node bench/stdio-echo.mjs [--calls N] [--warmup N] [--server path/to/server.mjs]
// BENCH_NODE_FLAGS='--cpu-prof' passes flags to the server's node.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const calls = Number(opt('calls', 20_000));
const warmup = Number(opt('warmup', 2_000));
const serverPath = opt('server', join(here, '..', 'examples', 'echo-stdio.mjs'));

const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...nodeFlags, serverPath], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = new Map();
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const text = rest + chunk;
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl !== -1) {
    const msg = JSON.parse(text.slice(start, nl));
    const done = waiting.get(msg.id);
    if (done) {
      waiting.delete(msg.id);
      done(msg);
    }
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  rest = text.slice(start);
});

let nextId = 0;
function call(method, params) {
  const id = ++nextId;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
}

const echoParams = { name: 'echo', arguments: { text: 'hello' } };

async function run(total, inFlight, latencies) {
  let issued = 0;
  async function worker() {
    while (issued < total) {
      issued++;
      const t0 = performance.now();
      const res = await call('tools/call', echoParams);
      if (latencies) latencies.push(performance.now() - t0);
      if (res.error || res.result.content[0].text !== 'hello')
        throw new Error(`bad answer ${JSON.stringify(res)}`);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

await call('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

console.log(`server: ${serverPath}\nnode ${process.version}, ${calls} calls after ${warmup} warm-up`);
for (const inFlight of [1, 64]) {
  await run(warmup, inFlight);
  const latencies = [];
  const t0 = performance.now();
  await run(calls, inFlight, latencies);
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `in flight ${String(inFlight).padStart(2)}: ${Math.round(calls / seconds).toLocaleString('en-US')} calls/s` +
      `  p50 ${pct(latencies, 0.5).toFixed(3)} ms  p99 ${pct(latencies, 0.99).toFixed(3)} ms`,
  );
}
child.stdin.end();
