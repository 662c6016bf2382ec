// Instructions per call of a stdio server, counted by valgrind's callgrind: the server runs under callgrind
// while the bench's load generator keeps 64 calls in flight, once for a short and once for a long run, and the
// difference divided by the extra calls is the server's cost of a call (start-up and shutdown cancel out). An
// instruction count is not a time, but it is the same on a quiet and on a busy machine, so two builds or two
// targets can be compared where calls/s move by ±30 % between runs. A plugin host process is not counted.
//
// usage: node src/instructions.mjs [--targets entropic,plugin-isolated,...] [--calls N] [--base N] [--client batch|each]
// (`--client each`: the per-message client, one message per `write`; see CLIENTS in stdio-client.mjs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLIENTS, StdioPeer } from './stdio-client.mjs';
import { stdioTargets } from './targets.mjs';
import { todayTarget } from './workloads/telemetry.mjs';

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'entropic,plugin-isolated,plugin-inprocess,serve-ts-async' },
    calls: { type: 'string', default: '24000' },
    base: { type: 'string', default: '4000' },
    client: { type: 'string', default: 'batch' },
  },
});
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions: valgrind is not installed (apt-get install valgrind)');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'entropic-instructions-'));

/** Total instructions of the server process over a run of `calls` calls (after a fixed warm-up). */
async function count(target, calls) {
  const out = join(scratch, `${target.name}.${calls}.out`);
  const wrapper = join(scratch, 'callgrind.sh');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=${out} "$@"\n`,
    { mode: 0o755 },
  );
  const peer = new StdioPeer({ ...target, command: wrapper, args: [target.command, ...target.args] });
  await peer.initialize(600_000); // a server starting under callgrind on a loaded machine takes minutes
  await peer.run(2000, 64, values.client);
  await peer.run(calls, 64, values.client);
  await peer.close();
  const summary = readFileSync(out, 'utf8').match(/^summary: (\d+)/m);
  if (!summary) throw new Error(`no callgrind summary in ${out}`);
  return Number(summary[1]);
}

if (!(values.client in CLIENTS)) {
  console.error(`instructions: --client is one of ${Object.keys(CLIENTS).join(', ')}`);
  process.exit(2);
}
console.log(`64 in flight, ${CLIENTS[values.client]}`);
const wanted = values.targets.split(',');
const base = Number(values.base);
const calls = Number(values.calls);
const rows = [];
// `entropic-today`: the TS echo on the server as it was before its telemetry (workloads/telemetry.mjs).
const all = wanted.includes('entropic-today') ? [todayTarget(), ...stdioTargets()] : stdioTargets();
for (const target of all.filter((t) => wanted.includes(t.name))) {
  const skipped = target.skip?.();
  if (skipped) {
    console.log(`${target.name}: skipped (${skipped})`);
    continue;
  }
  const few = await count(target, base);
  const many = await count(target, calls);
  const perCall = (many - few) / (calls - base);
  rows.push({ target: target.name, perCall });
  console.log(
    `${target.label.padEnd(66)} ${Math.round(perCall).toLocaleString('en-US').padStart(8)} instructions/call`,
  );
}
const ts = rows.find((r) => r.target === 'entropic');
if (ts) {
  for (const row of rows.filter((r) => r !== ts)) {
    console.log(
      `${row.target}: ${(row.perCall / ts.perCall).toFixed(2)}× the TS echo's instructions per call`,
    );
  }
}
rmSync(scratch, { recursive: true, force: true });
