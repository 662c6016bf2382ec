#!/usr/bin/env node
// Benchmark (prints figures, asserts nothing): calls/s and latency of a plugin echo call, awaited one at a
// time and with 256 in flight, for each hosting mode, beside a pure-JS async echo function; for the in-process
// mode also its synchronous path (`executeSync`) in a loop.
//
//   pnpm --filter @entropic-mcp/loader build && make -C packages/loader/test/fixtures
//   node packages/loader/bench/loader-bench.mjs [--calls N] [--modes process,none]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPlugin } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '50000' },
    modes: { type: 'string', default: 'process,none' },
    plugin: { type: 'string', default: join(here, '..', 'test', 'fixtures', 'build', 'crashy.so') },
  },
});
const calls = Number(values.calls);
const warmup = Math.min(5000, Math.ceil(calls / 10));
const args = { text: 'hello' };

async function awaited(call, n) {
  const lat = new Float64Array(n);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await call();
    lat[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  lat.sort();
  return { rate: n / seconds, p50: lat[Math.floor(n * 0.5)], p99: lat[Math.floor(n * 0.99)] };
}

async function pipelined(call, n, depth) {
  let sent = 0;
  const start = process.hrtime.bigint();
  async function lane() {
    while (sent < n) {
      sent++;
      await call();
    }
  }
  await Promise.all(Array.from({ length: depth }, lane));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { rate: n / seconds, perCall: (seconds * 1e6) / n };
}

async function measure(label, call) {
  await pipelined(call, warmup, 256);
  await awaited(call, warmup);
  const one = await awaited(call, Math.min(calls, 20000));
  const many = await pipelined(call, calls, 256);
  const f = (x) => x.toFixed(1);
  console.log(
    `${label.padEnd(24)} awaited: ${Math.round(one.rate).toString().padStart(8)} calls/s  p50 ${f(one.p50)} µs  p99 ${f(one.p99)} µs` +
      `   |   256 in flight: ${Math.round(many.rate).toString().padStart(8)} calls/s  (${f(many.perCall)} µs/call)`,
  );
}

// The in-process synchronous path: each call blocks the JS thread until the plugin answers.
function measureSync(label, call) {
  for (let i = 0; i < warmup; i++) call();
  const n = calls;
  const lat = new Float64Array(n);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    call();
    lat[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  const rate = n / (Number(process.hrtime.bigint() - start) / 1e9);
  lat.sort();
  const f = (x) => x.toFixed(1);
  console.log(
    `${label.padEnd(24)} in a loop: ${Math.round(rate).toString().padStart(8)} calls/s  p50 ${f(lat[Math.floor(n * 0.5)])} µs  p99 ${f(lat[Math.floor(n * 0.99)])} µs`,
  );
}

console.log(`node ${process.version}, ${calls} calls (${warmup} warm-up), plugin ${values.plugin}`);
const jsEcho = async (_tool, a) => ({ result: JSON.stringify(a), directives: [] });
await measure('pure-JS echo', () => jsEcho('echo', args));

for (const mode of values.modes.split(',')) {
  if (!existsSync(values.plugin)) throw new Error(`${values.plugin} is missing; run make -C test/fixtures`);
  let plugin;
  try {
    plugin = await loadPlugin(values.plugin, { isolation: mode });
  } catch (error) {
    console.log(`${`isolation '${mode}'`.padEnd(24)} unavailable: ${error.message}`);
    continue;
  }
  await measure(`isolation '${mode}'`, () => plugin.execute('echo', args));
  if (mode === 'none') measureSync('executeSync (blocking)', () => plugin.executeSync('echo', args));
  await plugin.close();
}

// Large answers: the 5 MB result of the bad-answers fixture's `huge` tool, awaited one at a time.
const huge = join(here, '..', 'test', 'fixtures', 'build', 'bad-answers.so');
for (const mode of existsSync(huge) ? values.modes.split(',') : []) {
  const plugin = await loadPlugin(huge, { isolation: mode }).catch(() => undefined);
  if (plugin === undefined) continue;
  await plugin.execute('huge', {});
  const n = 20;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await plugin.execute('huge', {});
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / n;
  console.log(
    `${`5 MB answer, '${mode}'`.padEnd(24)} awaited: ${ms.toFixed(1)} ms/call  (${(5 / (ms / 1000)).toFixed(0)} MB/s)`,
  );
  await plugin.close();
}
