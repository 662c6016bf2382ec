// Throughput of the echo tool on Bun, Deno and workerd beside Node: the examples of examples/runtimes/ on the
// real binaries from npm, and bench/servers/entropic-http.mjs (the node:http handler) on this Node, driven by one
// load generator in both eras. Prints calls/s, latency, the server's CPU per call and each runtime's ratio to Node.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launch, RUNTIMES } from '@entropic-mcp/runtimes-test/launch';
import { openClients, runHttp } from './http-client.mjs';
import { startHttpServer } from './http-server.mjs';
import { best, measure } from './measure.mjs';
import { httpTargets } from './targets.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'node,bun,deno,workers' },
    eras: { type: 'string', default: 'modern,legacy' },
    calls: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '16' },
    repeat: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
  },
});
const calls = values.quick ? 300 : Number(values.calls);
const warmup = values.quick ? 100 : Number(values.warmup);
const clients = Number(values.clients);
const repeat = values.quick ? 1 : Number(values.repeat);
const eras = values.eras.split(',');
const names = values.only.split(',');
for (const name of names) {
  if (name !== 'node' && !(name in RUNTIMES)) throw new Error(`--only: unknown runtime ${name}`);
}
for (const era of eras)
  if (era !== 'modern' && era !== 'legacy') throw new Error(`--eras: unknown era ${era}`);

const nodeTarget = httpTargets().find((target) => target.name === 'entropic');
const echo = { tool: 'echo', arguments: { text: 'hello' }, expect: 'hello' };
const TITLES = { node: `Node ${process.version} (node:http handler)` };

/** One runtime started, every era measured on it, then stopped. */
async function round(name) {
  const started =
    name === 'node' ? await nodeServer() : await launch(name).then((s) => ({ ...s, close: () => s.stop() }));
  try {
    const out = {};
    for (const era of eras) {
      const pool = await openClients(started.url, echo, clients, era);
      try {
        await runHttp(pool.clients, warmup);
        out[era] = await measure(started.pid, () => runHttp(pool.clients, calls));
      } finally {
        pool.close();
      }
    }
    return out;
  } finally {
    await started.close();
  }
}

/** The Node figure: the same echo tool behind the node:http handler, in stateful SSE mode (it serves both eras). */
function nodeServer() {
  return startHttpServer(nodeTarget, 'sse');
}

const loadBefore = loadavg()[0];
const runs = Object.fromEntries(
  names.map((name) => [name, Object.fromEntries(eras.map((era) => [era, []]))]),
);
for (let r = 0; r < repeat; r++) {
  for (const name of names) {
    const result = await round(name);
    for (const era of eras) runs[name][era].push(result[era]);
    process.stderr.write(`round ${r + 1}/${repeat} ${name} done\n`);
  }
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
console.log(
  `\necho tools/call, ${clients} clients each with one call in flight, ${fmt(calls)} calls after ${fmt(warmup)}, ` +
    `best of ${repeat} interleaved rounds; load average ${loadBefore.toFixed(1)} at the start, ` +
    `${loadavg()[0].toFixed(1)} at the end`,
);
for (const era of eras) {
  const label = era === 'modern' ? '2026-07-28 (stateless)' : '2025-11-25 (sessions)';
  console.log(`\n${label}`);
  console.log('| runtime | calls/s | p50 ms | p99 ms | server CPU µs/call | × Node |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const node = runs.node ? best(runs.node[era]).perSecond : undefined;
  for (const name of names) {
    const top = best(runs[name][era]);
    const ratio = node === undefined ? '–' : (top.perSecond / node).toFixed(2);
    const title = TITLES[name] ?? RUNTIMES[name].title;
    console.log(
      `| ${title} | ${fmt(top.perSecond)} | ${fmt(top.p50us / 1000, 2)} | ${fmt(top.p99us / 1000, 2)} | ` +
        `${fmt(top.serverCpuPerCallUs)} | ${ratio} |`,
    );
  }
}
