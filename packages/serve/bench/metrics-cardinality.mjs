#!/usr/bin/env node
// Metric cardinality under made-up method names: starts `entropic-mcp serve --http --metrics` with the example
// plugins, then in each round sends N requests whose method names were never seen before (half in a 2025-11-25
// session, half as 2026-07-28 requests, `com.x/y` style for one in two) and scrapes /metrics. Prints, per round,
// the series in the scrape, the scrape's size and time, and the serve process's RSS.
//   node packages/serve/bench/metrics-cardinality.mjs [--rounds R] [--names N]
// Defaults: 6 rounds of 2,000 names. Needs the workspace build (dist/ and the example plugins' build/).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
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
const ROUNDS = opt('rounds', 6);
const NAMES = opt('names', 2000);
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const plugins = readdirSync(join(repo, 'examples/plugins'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(repo, 'examples/plugins', d.name, 'build')))
  .flatMap((d) =>
    readdirSync(join(repo, 'examples/plugins', d.name, 'build'))
      .filter((f) => f.endsWith('.so'))
      .map((f) => join(repo, 'examples/plugins', d.name, 'build', f)),
  );

function post(url, body, headers) {
  return new Promise((done, fail) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => done({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

function rss(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

const metricsPort = await freePort();
const args = ['serve', '--http', '127.0.0.1:0', '--metrics', `127.0.0.1:${metricsPort}`];
for (const p of plugins) args.push('--plugin', p);
const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
const url = await new Promise((done, fail) => {
  child.stderr.on('data', (c) => {
    stderr += c;
    const m = /listening on (http:\/\/\S+)/.exec(stderr);
    if (m) done(m[1]);
  });
  child.once('exit', (code) => fail(new Error(`serve exited ${code}:\n${stderr}`)));
});

const init = await post(url, {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});
const session = init.headers['mcp-session-id'];
await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session });
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

console.log(
  `serve with ${plugins.length} example plugins; ${ROUNDS} rounds of ${NAMES} made-up method names`,
);
console.log('round  names sent  series  scrape KiB  scrape ms  serve RSS MiB');
let id = 1;
for (let round = 1; round <= ROUNDS; round++) {
  const shots = [];
  for (let i = 0; i < NAMES; i++) {
    const method = i % 2 === 0 ? `made/up-${round}-${i}` : `com.example${round}x${i}/call`;
    if (i % 4 < 2)
      shots.push([
        { jsonrpc: '2.0', id: id++, method, params: {} },
        { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
      ]);
    else
      shots.push([
        { jsonrpc: '2.0', id: id++, method, params: { _meta: meta } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': method },
      ]);
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < shots.length) {
        const [body, headers] = shots[next++];
        await post(url, body, headers);
      }
    }),
  );
  const started = performance.now();
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const ms = performance.now() - started;
  const series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
  console.log(
    `${String(round).padStart(5)}  ${String(round * NAMES).padStart(10)}  ${String(series).padStart(6)}  ${String(Math.round(text.length / 1024)).padStart(10)}  ${ms.toFixed(1).padStart(9)}  ${String(rss(child.pid)).padStart(13)}`,
  );
}
child.kill('SIGTERM');
await new Promise((done) => child.once('exit', done));
agent.destroy();
