// Echo tools/call throughput of the node:http handler against the fetch handler (@hono/node-server): prints calls/s and the ratio.
// Usage: node scripts/fetch-bench.mjs [seconds=5] [concurrency=16]  (after `pnpm run build`)

import { createServer } from 'node:http';
import { serve } from '@hono/node-server';
import { createFetchHandler } from '../dist/fetch/index.js';
import { createMcpHttpHandler } from '../dist/http/index.js';
import { McpServer, text } from '../dist/index.js';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);
const ACCEPT = 'application/json, text/event-stream';

function mcpServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.addTool({ name: 'echo', inputSchema: { type: 'object' } }, (args) => ({
    content: [text(String(args.text))],
  }));
  return server;
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function session(url) {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(init),
  });
  await res.text();
  const id = res.headers.get('mcp-session-id');
  const headers = {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-session-id': id,
    'mcp-protocol-version': '2025-11-25',
  };
  await (
    await fetch(url, {
      method: 'POST',
      headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    })
  ).text();
  return headers;
}

async function run(label, url) {
  const headers = await session(url);
  let calls = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async (w) => {
    for (let i = 0; performance.now() < end; i++) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: `${w}-${i}`,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'hi' } },
      });
      const res = await fetch(url, { method: 'POST', headers, body });
      const answer = await res.text();
      if (!answer.includes('"hi"')) throw new Error(`${label}: unexpected answer ${answer}`);
      calls++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const rate = calls / ((performance.now() - start) / 1000);
  console.log(`${label.padEnd(32)} ${rate.toFixed(0).padStart(7)} calls/s (${calls} calls)`);
  return rate;
}

const node = createMcpHttpHandler(mcpServer());
const nodeServer = await listen(createServer(node));
const web = createFetchHandler(mcpServer());
const webServer = await new Promise((resolve) => {
  const s = serve({ fetch: web, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
const nodeUrl = `http://127.0.0.1:${nodeServer.address().port}/mcp`;
const webUrl = `http://127.0.0.1:${webServer.address().port}/mcp`;

console.log(`echo tools/call, SSE answers in one session, ${concurrency} in flight, ${seconds} s each`);
await run('warm-up node', nodeUrl);
const a = await run('node:http handler', nodeUrl);
const b = await run('fetch handler (@hono/node-server)', webUrl);
const c = await run('node:http handler (again)', nodeUrl);
console.log(`fetch / node: ${(b / ((a + c) / 2)).toFixed(2)}`);
await node.close();
await web.close();
nodeServer.closeAllConnections();
webServer.closeAllConnections();
nodeServer.close();
webServer.close();
