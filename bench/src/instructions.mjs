// Instructions per call of a stdio server, counted by valgrind's callgrind: the server runs under callgrind
// while the bench's load generator keeps 64 calls in flight, once for a short and once for a long run, and the
// difference divided by the extra calls is the server's cost of a call (start-up and shutdown cancel out). An
// instruction count is not a time, but it is the same on a quiet and on a busy machine, so two builds or two
// targets can be compared where calls/s move by ±30 % between runs. A plugin host process is not counted.
//
// usage: node src/instructions.mjs [--targets entropic,plugin-isolated,...] [--calls N] [--base N] [--client batch|each]
// (`--client each`: the per-message client, one message per `write`; see CLIENTS in stdio-client.mjs)
//        node src/instructions.mjs --http sse|json|stateless|modern [--before GIT-REF] [--calls N] [--base N]
// (the TS echo over Streamable HTTP, 64 clients; with --before, also the server built at GIT-REF, baseline.mjs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineCommit, baselineServer } from './baseline.mjs';
import { openClients, runHttp } from './http-client.mjs';
import { startHttpServer } from './http-server.mjs';
import { CLIENTS, StdioPeer } from './stdio-client.mjs';
import { httpTargets, stdioTargets } from './targets.mjs';
import { todayTarget } from './workloads/telemetry.mjs';

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: 'entropic,plugin-isolated,plugin-inprocess,serve-ts-async' },
    calls: { type: 'string', default: '24000' },
    base: { type: 'string', default: '4000' },
    client: { type: 'string', default: 'batch' },
    http: { type: 'string' },
    before: { type: 'string' },
  },
});
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions: valgrind is not installed (apt-get install valgrind)');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'entropic-instructions-'));

/** A script that runs its arguments under callgrind, writing to `out`. */
function callgrind(out) {
  const wrapper = join(scratch, 'callgrind.sh');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=${out} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

/** Total instructions of the server process over a run of `calls` calls (after a fixed warm-up). */
async function count(target, calls) {
  const out = join(scratch, `${target.name}.${calls}.out`);
  const command = callgrind(out);
  if (values.http !== undefined) {
    const server = await startHttpServer(
      {
        ...target,
        command,
        args: [target.command, ...target.args],
        env: { ...target.env, ENTROPIC_BENCH_KEEPALIVE_MS: '600000' },
      },
      values.http,
      true,
    );
    try {
      const crowd = await openClients(server.url, target, 64, values.http === 'modern' ? 'modern' : 'legacy');
      await runHttp(crowd.clients, 2000);
      await runHttp(crowd.clients, calls);
      crowd.close();
    } finally {
      await server.close(); // also after a failed run: a server under valgrind must not be left behind
    }
  } else {
    const peer = new StdioPeer({ ...target, command, args: [target.command, ...target.args] });
    await peer.initialize(600_000); // a server starting under callgrind on a loaded machine takes minutes
    await peer.run(2000, 64, values.client);
    await peer.run(calls, 64, values.client);
    await peer.close();
  }
  const summary = readFileSync(out, 'utf8').match(/^summary: (\d+)/m);
  if (!summary) throw new Error(`no callgrind summary in ${out}`);
  return Number(summary[1]);
}

if (!(values.client in CLIENTS)) {
  console.error(`instructions: --client is one of ${Object.keys(CLIENTS).join(', ')}`);
  process.exit(2);
}
console.log(values.http ? `HTTP ${values.http}, 64 clients` : `64 in flight, ${CLIENTS[values.client]}`);
const base = Number(values.base);
const calls = Number(values.calls);
const rows = [];
let all;
let wanted;
if (values.http !== undefined) {
  // The TS echo over HTTP, and with --before the same on the server built at that commit.
  const ts = httpTargets().find((t) => t.name === 'entropic');
  all = [ts];
  if (values.before !== undefined) {
    const commit = baselineCommit(values.before);
    const dist = baselineServer(commit);
    all.push({
      ...ts,
      name: `entropic@${commit}`,
      label: `${ts.label} at ${commit}`,
      env: { ENTROPIC_BENCH_SERVER: dist },
    });
  }
  wanted = all.map((t) => t.name);
} else {
  wanted = values.targets.split(',');
  // `entropic-today`: the TS echo on the server as it was before its telemetry (workloads/telemetry.mjs).
  all = wanted.includes('entropic-today') ? [todayTarget(), ...stdioTargets()] : stdioTargets();
}
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
