#!/usr/bin/env node
// Echo tools/call over stdio against a child process running examples/echo-stdio.mjs.
// Prints calls/s and p50/p99 latency at 1 and 64 calls in flight (2,000 warm-up, 20,000 measured).
//   node bench/stdio-echo.mjs [--calls N] [--warmup N] [--server path/to/server.mjs]
// BENCH_NODE_FLAGS='--cpu-prof' passes flags to the server's node.
// The load generator keeps `inFlight` requests outstanding, sends a new one as each answer arrives,
// and writes the requests of one event-loop turn in one write, so it stays lighter than the server.
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

let onAnswer = () => {};
let rest = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const text = rest + chunk;
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl !== -1) {
    onAnswer(JSON.parse(text.slice(start, nl)));
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  rest = text.slice(start);
});

let outbox = [];
let flushing = false;
function write(line) {
  outbox.push(line);
  if (!flushing) {
    flushing = true;
    setImmediate(() => {
      flushing = false;
      child.stdin.write(outbox.join(''));
      outbox = [];
    });
  }
}

let nextId = 0;
const callTail = `,"method":"tools/call","params":${JSON.stringify({ name: 'echo', arguments: { text: 'hello' } })}}\n`;

/** Run `total` calls with `inFlight` outstanding; resolves with sorted latencies (ms) and seconds taken. */
function phase(total, inFlight) {
  return new Promise((resolve, reject) => {
    const started = new Map();
    const latencies = new Float64Array(total);
    let sent = 0;
    let done = 0;
    const t0 = performance.now();
    const send = () => {
      const id = ++nextId;
      started.set(id, performance.now());
      sent++;
      write(`{"jsonrpc":"2.0","id":${id}${callTail}`);
    };
    onAnswer = (msg) => {
      const begun = started.get(msg.id);
      if (begun === undefined) return;
      started.delete(msg.id);
      if (msg.error || msg.result.content[0].text !== 'hello')
        reject(new Error(`bad answer ${JSON.stringify(msg)}`));
      latencies[done++] = performance.now() - begun;
      if (sent < total) send();
      else if (done === total)
        resolve({ latencies: latencies.sort(), seconds: (performance.now() - t0) / 1000 });
    };
    for (let i = 0; i < Math.min(inFlight, total); i++) send();
  });
}

function request(method, params) {
  return new Promise((resolve) => {
    const id = ++nextId;
    onAnswer = (msg) => {
      if (msg.id === id) resolve(msg);
    };
    write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

await request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

console.log(`server: ${serverPath}\nnode ${process.version}, ${calls} calls after ${warmup} warm-up`);
for (const inFlight of [1, 64]) {
  await phase(warmup, inFlight);
  const { latencies, seconds } = await phase(calls, inFlight);
  console.log(
    `in flight ${String(inFlight).padStart(2)}: ${Math.round(calls / seconds).toLocaleString('en-US')} calls/s` +
      `  p50 ${pct(latencies, 0.5).toFixed(3)} ms  p99 ${pct(latencies, 0.99).toFixed(3)} ms`,
  );
}
child.stdin.end();
