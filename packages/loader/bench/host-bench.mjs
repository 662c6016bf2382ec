#!/usr/bin/env node
// Benchmark of the plugin host alone (prints figures, asserts nothing): writes N execute requests in one go and
// times until every answer is back, so the figure is the host's own ceiling without the loader's promises.
//
//   node packages/loader/bench/host-bench.mjs [--calls N] [--host PATH] [--plugin PATH]
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findHost } from '../dist/isolated/find-host.js';
import { FrameReader, Op, requestText } from '../dist/wire/frames.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '200000' },
    host: { type: 'string' },
    plugin: { type: 'string', default: join(here, '..', 'test', 'fixtures', 'build', 'crashy.so') },
  },
});
const n = Number(values.calls);
const host = values.host ?? findHost(undefined, values.plugin);
const child = spawn(host, [values.plugin], { stdio: ['pipe', 'pipe', 'inherit'] });

let text = '';
for (let i = 1; i <= n; i++) text += requestText(i, Op.execute, 'echo', '{"text":"hello"}');
const batch = Buffer.from(text); // encoded before the clock starts: the figure is the host's

let answers = 0;
let start = 0n;
const reader = new FrameReader((id) => {
  if (id === 0) {
    start = process.hrtime.bigint();
    child.stdin.write(batch);
    return;
  }
  if (++answers < n) return;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(
    `${host}: ${n} echo calls in ${(seconds * 1000).toFixed(0)} ms, ${Math.round(n / seconds)} answers/s`,
  );
  child.stdin.end();
});
child.stdout.on('data', (chunk) => reader.push(chunk));
