// Reads and writes per call of a stdio server under the bench's load, per file descriptor: how many chunks it
// read (and how many requests came in each), how many writes it made, and how many of its writes to a plugin
// host carried the lone-call hint (the host then looks for the next request awake). The server runs with
// io-probe.cjs preloaded; the count starts after a warm-up.
//
// usage: node bench/src/io-counts.mjs [--targets entropic,plugin-isolated,plugin-inprocess] [--client each|batch]
//                                     [--inflight N] [--calls N] [--loader PATH]
// --loader: serve the plugin targets with another built packages/loader (as compare.mjs --before).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLIENTS, StdioPeer } from './stdio-client.mjs';
import { fromBuild, stdioTargets } from './targets.mjs';

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'entropic,plugin-isolated,plugin-inprocess' },
    client: { type: 'string', default: 'each' },
    inflight: { type: 'string', default: '64' },
    calls: { type: 'string', default: '20000' },
    loader: { type: 'string' },
  },
});
if (!(values.client in CLIENTS)) throw new Error(`--client is one of ${Object.keys(CLIENTS).join(', ')}`);
const calls = Number(values.calls);
const inflight = Number(values.inflight);
const probe = fileURLToPath(new URL('io-probe.cjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'entropic-io-counts-'));
const wanted = values.targets.split(',');

console.log(
  `${inflight} in flight, ${CLIENTS[values.client]}, ${calls.toLocaleString('en-US')} calls; per call:`,
);
for (let target of stdioTargets().filter((t) => wanted.includes(t.name))) {
  if (values.loader !== undefined && target.name.startsWith('plugin-'))
    target = fromBuild(target, values.loader);
  const out = join(scratch, `${target.name}.json`);
  const peer = new StdioPeer({
    ...target,
    env: { ...target.env, NODE_OPTIONS: `--require ${probe}`, IO_PROBE_OUT: out },
  });
  await peer.initialize();
  await peer.run(4000, inflight, values.client);
  process.kill(peer.pid, 'SIGUSR2');
  await sleep(50);
  const run = await peer.run(calls, inflight, values.client);
  await peer.close();
  const counts = JSON.parse(readFileSync(out, 'utf8'));
  const fds = [...new Set(Object.keys(counts).map((key) => key.split(' ')[1]))].sort();
  const parts = fds.map((fd) => {
    const n = (key) => counts[`${key} ${fd}`] ?? 0;
    const reads = n('read');
    const bits = [];
    if (reads > 0) {
      const lines = counts[`read ${fd} lines`];
      const one = counts[`read ${fd} one line`] ?? 0;
      const each =
        lines === undefined
          ? ''
          : ` (${(lines / reads).toFixed(1)} lines each, ${Math.round((100 * one) / reads)} % one)`;
      bits.push(`${(reads / calls).toFixed(3)} reads${each}`);
    }
    if (n('write') > 0) {
      const lone = counts[`write ${fd} lone`] ?? 0;
      bits.push(`${(n('write') / calls).toFixed(3)} writes${lone > 0 ? ` (${lone} lone)` : ''}`);
    }
    return `fd ${fd}: ${bits.join(', ')}`;
  });
  const rate = Math.round((calls / run.elapsedMs) * 1000).toLocaleString('en-US');
  console.log(`${target.name.padEnd(26)} ${rate}/s  ${parts.join('; ')}`);
}
rmSync(scratch, { recursive: true, force: true });
