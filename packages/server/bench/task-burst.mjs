#!/usr/bin/env node
// How long other clients wait while one client makes a burst of 2025-11-25 tasks: a server (child
// process, Streamable HTTP, the task-burst fixtures) with N handler slots; one official SDK v1 client
// (another child process, so its own work does not slow the measuring clients) creates `--tasks` tasks at
// once with callToolStream, each working `--ms`; three other clients (this process) call a tool, read a
// resource and get a prompt, in rounds, before the burst, while its tasks run, and after. Prints each
// phase's median and slowest answer. A call not answered within 10 s counts as hung.
//
//   pnpm --filter @entropic-mcp/server build && node packages/server/bench/task-burst.mjs [--tasks 64] [--ms 3000] [--concurrency 64] [--rounds 20]

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TASKS = option('--tasks', 64);
const MS = option('--ms', 3000);
const SLOTS = option('--concurrency', 64);
const ROUNDS = option('--rounds', 20);
const HUNG_MS = 10_000;

if (args.includes('--serve')) {
  const { McpServer } = await import('@entropic-mcp/server');
  const { serveHttp } = await import('@entropic-mcp/server/http');
  const { registerBurst } = await import('../test/fixtures/tasks/burst.mjs');
  const server = new McpServer(
    { name: 'task-burst', version: '1.0.0' },
    { maxConcurrency: SLOTS, tasks: { maxTasksPerPrincipal: 1024 } },
  );
  const handle = await serveHttp(registerBurst(server), { port: 0 });
  process.stdout.write(`${handle.url}\n`);
} else if (args.includes('--burst')) {
  await burst(args[args.indexOf('--burst') + 1]);
} else {
  await main();
}

function within(promise, what) {
  let timer;
  const hung = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: ${what} unanswered after ${HUNG_MS} ms`)), HUNG_MS);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

async function connect(url, name) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One round of the three calls from each client; the time of each answer in ms. */
async function round(clients) {
  const times = [];
  const timed = async (what, call) => {
    const t0 = performance.now();
    await within(call(), what);
    times.push(performance.now() - t0);
  };
  await Promise.all(
    clients.map(async (client, i) => {
      await timed(`client ${i} tools/call`, () =>
        client.callTool({ name: 'echo', arguments: { text: 'hi' } }),
      );
      await timed(`client ${i} resources/read`, () => client.readResource({ uri: 'burst://note' }));
      await timed(`client ${i} prompts/get`, () => client.getPrompt({ name: 'greet' }));
    }),
  );
  return times;
}

function report(phase, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(
    `${phase.padEnd(28)} calls ${String(sorted.length).padStart(4)}  median ${at(0.5)} ms  slowest ${at(1)} ms`,
  );
}

/** The bursting client: `TASKS` tasks at once, each read to its end; prints how it went. */
async function burst(url) {
  const client = await connect(url, 'burster');
  const t0 = performance.now();
  let created = 0;
  let createdAt;
  const one = async () => {
    const stream = client.experimental.tasks.callToolStream(
      { name: 'chore', arguments: { ms: MS } },
      CallToolResultSchema,
      { task: { ttl: 120_000 }, timeout: 120_000 },
    );
    let last;
    for await (const message of stream) {
      if (message.type === 'taskCreated' && ++created === TASKS) createdAt = performance.now() - t0;
      last = message.type;
    }
    return last;
  };
  const ends = await Promise.all(Array.from({ length: TASKS }, one));
  const results = ends.filter((type) => type === 'result').length;
  console.log(
    `burst: ${results}/${TASKS} results; all created after ${createdAt?.toFixed(0)} ms, all ended after ${(performance.now() - t0).toFixed(0)} ms`,
  );
  await client.close();
}

async function main() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim()));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  let burster;
  try {
    const others = await Promise.all([0, 1, 2].map((i) => connect(url, `other-${i}`)));
    console.log(`${TASKS} tasks of ${MS} ms from one client, ${SLOTS} handler slots, 3 other clients`);
    const before = [];
    for (let i = 0; i < ROUNDS; i++) before.push(...(await round(others)));
    report('before the burst', before);

    const t0 = performance.now();
    burster = spawn(process.execPath, [fileURLToPath(import.meta.url), '--burst', url, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let summary = '';
    burster.stdout.on('data', (chunk) => {
      summary += chunk;
    });
    const ended = new Promise((resolve) => burster.once('exit', resolve));
    const during = [];
    while (performance.now() - t0 < MS) during.push(...(await round(others)));
    report('while the tasks run', during);
    await ended;
    process.stdout.write(summary);
    const after = [];
    for (let i = 0; i < ROUNDS; i++) after.push(...(await round(others)));
    report('after the burst', after);
    await Promise.all(others.map((client) => client.close()));
  } finally {
    burster?.kill();
    child.kill();
  }
}
