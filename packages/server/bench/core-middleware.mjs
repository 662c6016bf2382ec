#!/usr/bin/env node
// In-process CPU cost of middleware: echo tools/call through the core (no I/O), 64 in flight, with 0 and
// with N middlewares (the three kinds http-echo.mjs adds), each count in a fresh process, interleaved.
// Prints the CPU time (user + system) per call, steadier than wall time on a shared machine.
//
//   pnpm --filter @entropic-mcp/server build && node packages/server/bench/core-middleware.mjs [--counts 0,3] [--rounds 5]

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};

async function measure(count, calls) {
  const { McpServer, text } = await import('../dist/index.js');
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.addTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (a) => ({ content: [text(a.text)] }),
  );
  const kinds = [
    [undefined, async (_ctx, next) => next()],
    [{ method: 'tools/call' }, (ctx, next) => (typeof ctx.params?.name === 'string' ? next() : next())],
    [{ tool: 'echo' }, async (_ctx, next) => ({ ...(await next()) })],
  ];
  for (let i = 0; i < count; i++) {
    const [match, fn] = kinds[i % kinds.length];
    if (match === undefined) server.use(fn);
    else server.use(match, fn);
  }
  let answered = 0;
  let target = 0;
  let wake;
  const transport = {
    start: async () => {},
    close: async () => {},
    send: () => {
      answered++;
      if (wake !== undefined && answered >= target) {
        const w = wake;
        wake = undefined;
        w();
      }
    },
  };
  await server.connect(transport);
  const initialize = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'b', version: '1' },
  };
  transport.onmessage({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize });
  let id = 1;
  const drive = async (n) => {
    for (let done = 0; done < n; done += 64) {
      target = answered + 64;
      for (let j = 0; j < 64; j++) {
        transport.onmessage({
          jsonrpc: '2.0',
          id: id++,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'hello' } },
        });
      }
      if (answered < target) await new Promise((resolve) => (wake = resolve));
    }
  };
  await drive(calls / 3);
  const cpu0 = process.cpuUsage();
  await drive(calls);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${((cpu.user + cpu.system) * 1000) / calls}\n`);
}

if (args[0] === '--measure') await measure(Number(args[1]), Number(args[2]));
else {
  const counts = option('--counts', '0,3').split(',').map(Number);
  const rounds = Number(option('--rounds', '5'));
  const calls = Number(option('--calls', '300000'));
  const self = fileURLToPath(import.meta.url);
  const runs = new Map(counts.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of counts) {
      const out = execFileSync(process.execPath, [self, '--measure', String(n), String(calls)], {
        encoding: 'utf8',
      });
      runs.get(n).push(Number(out));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`echo tools/call through the core, 64 in flight, ${calls} calls, ${rounds} interleaved rounds`);
  for (const [n, xs] of runs) {
    console.log(
      `${n} middlewares: ${xs.map((x) => x.toFixed(0)).join(' / ')} ns CPU/call, median ${median(xs).toFixed(0)}`,
    );
  }
}
