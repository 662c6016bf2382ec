#!/usr/bin/env node
// Benchmark (prints figures, asserts nothing): how soon a cancelled call of a plugin with the plugin context ends,
// in each hosting mode. The slow example counts with `delay_ms` per step; the call is aborted at its second
// progress report, and the time is taken from the abort to the answer of the next call on the same instance
// (which can only run once the cancelled one has returned). The target is 100 ms plus one step.
//
//   pnpm --filter @entropic-mcp/loader build && pnpm --filter @entropic-mcp/example-plugins build
//   node packages/loader/bench/cancel-latency.mjs [--rounds N] [--step-ms D]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPlugin } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '20' }, 'step-ms': { type: 'string', default: '50' } },
});
const rounds = Number(values.rounds);
const step = Number(values['step-ms']);
const slow = join(here, '..', '..', '..', 'examples', 'plugins', 'slow', 'build', 'slow.so');

for (const isolation of ['process', 'none']) {
  const plugin = await loadPlugin(slow, { isolation });
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const controller = new AbortController();
    let abortedAt = 0;
    const voice = {
      progress: (done) => {
        if (done === 2) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    };
    await plugin
      .execute('count', { to: 10_000, delay_ms: step }, { signal: controller.signal, voice })
      .catch(() => {});
    await plugin.execute('count', { to: 1, delay_ms: 0 });
    times.push(performance.now() - abortedAt);
  }
  await plugin.close();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))].toFixed(1);
  console.log(
    `isolation '${isolation}'`.padEnd(22) +
      `abort → next answer: p50 ${at(0.5)} ms  max ${at(1)} ms  over ${rounds} rounds (step ${step} ms; target ≤ ${100 + step} ms)`,
  );
}
