#!/usr/bin/env node
// A benchmark program (not a test): tools/call throughput through `entropic-mcp serve`, driven by the official
// SDK client, against a built plugin (default: the bundled echo example, tool "echo").
//   node bench/serve-throughput.mjs [--http] [--isolation process|none] [--calls N] [--inflight N] [--plugin PATH]
// Prints calls per second with N in flight and awaited one at a time. Figures depend on the client as much as on
// the server: the SDK client is the heavier side on a 2-core machine.
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// The SDK's HTTP transport hangs one abort listener per request in flight on a shared signal.
setMaxListeners(0);

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '..', 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    isolation: { type: 'string', default: 'process' },
    calls: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '64' },
    plugin: { type: 'string', default: resolve(here, '../../../examples/plugins/echo/build/echo.so') },
    tool: { type: 'string', default: 'echo.echo' },
  },
});
const calls = Number(values.calls);
const inflight = Number(values.inflight);
const serveArgs = [cli, 'serve', '--plugin', values.plugin, '--isolation', values.isolation];

async function connect() {
  const client = new Client({ name: 'serve-throughput', version: '1.0.0' });
  if (!values.http) {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serveArgs, stderr: 'ignore' }),
    );
    return { client, stop: () => client.close() };
  }
  const child = spawn(process.execPath, [...serveArgs, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const url = await new Promise((ready, fail) => {
    child.stderr.on('data', (c) => {
      text += c;
      const m = /listening on (\S+)/.exec(text);
      if (m) ready(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${text}`)));
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const stop = async () => {
    await client.close();
    child.kill('SIGTERM');
  };
  return { client, stop };
}

const { client, stop } = await connect();
const call = () => client.callTool({ name: values.tool, arguments: { text: 'x' } });
for (let i = 0; i < 1000; i++) await call(); // warm-up

let started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: inflight }, async () => {
    while (next < calls) {
      next++;
      await call();
    }
  }),
);
const pipelined = calls / ((performance.now() - started) / 1000);

const awaitedCalls = Math.max(1, Math.floor(calls / 5));
started = performance.now();
for (let i = 0; i < awaitedCalls; i++) await call();
const elapsed = performance.now() - started;

const transport = values.http ? 'Streamable HTTP' : 'stdio';
console.log(`${transport}, isolation ${values.isolation}, ${values.tool}`);
console.log(
  `  ${inflight} in flight: ${Math.round(pipelined).toLocaleString('en')} calls/s (${calls} calls)`,
);
console.log(
  `  awaited:      ${Math.round(awaitedCalls / (elapsed / 1000)).toLocaleString('en')} calls/s, ` +
    `${Math.round((elapsed * 1000) / awaitedCalls)} µs per call (${awaitedCalls} calls)`,
);
await stop();
