// Compares the TypeScript echo over Streamable HTTP on this checkout's server with the same server built at
// another commit: several server processes per build, every round visiting every process in a new random order
// (so that drift of the machine falls on both builds alike), medians of all the runs. Prints, per mode and build,
// calls/s, the median latency and the server's CPU per call, and the ratio of the two builds.
//
// usage: node bench/src/compare-http.mjs --before GIT-REF [--modes sse,json,stateless,modern] [--clients N]
//                                        [--procs N] [--rounds N] [--calls N]
// --before: a commit of this repository; its packages/server is built once into bench/.baseline/<commit>/.
import { parseArgs } from 'node:util';
import { baselineCommit, baselineServer } from './baseline.mjs';
import { openClients, runHttp } from './http-client.mjs';
import { startHttpServer } from './http-server.mjs';
import { measure } from './measure.mjs';
import { medianOf, shuffled } from './stats.mjs';
import { httpTargets } from './targets.mjs';

const MODES = ['sse', 'json', 'stateless', 'modern'];
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    modes: { type: 'string', default: MODES.join(',') },
    clients: { type: 'string', default: '64' },
    procs: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '6' },
    calls: { type: 'string', default: '3000' },
  },
});
if (values.before === undefined) throw new Error('--before GIT-REF is required (the build to compare with)');
const modes = values.modes.split(',');
for (const mode of modes) if (!MODES.includes(mode)) throw new Error(`--modes takes ${MODES.join(', ')}`);
const [clients, procs, rounds, calls] = ['clients', 'procs', 'rounds', 'calls'].map((k) => {
  const n = Number(values[k]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${k} expects a positive integer, got ${values[k]}`);
  return n;
});

const today = httpTargets().find((t) => t.name === 'entropic');
const skipped = today.skip?.();
if (skipped) throw new Error(`entropic: ${skipped}`);
const commit = baselineCommit(values.before);
const before = {
  ...today,
  name: `entropic@${commit}`,
  env: { ENTROPIC_BENCH_SERVER: baselineServer(commit) },
};

const int = (n) => Math.round(n).toLocaleString('en-US');

console.log(
  `${new Date().toISOString()}: TS echo over HTTP, ${clients} clients; this checkout against ${commit}; ` +
    `${procs} processes per build × ${rounds} rounds × ${int(calls)} calls; medians of the ${procs * rounds} runs`,
);
for (const mode of modes) {
  const era = mode === 'modern' ? 'modern' : 'legacy';
  const entries = [];
  for (const target of [today, before]) {
    for (let k = 0; k < procs; k++) {
      const server = await startHttpServer(target, mode);
      const crowd = await openClients(server.url, target, clients, era);
      await runHttp(crowd.clients, calls);
      entries.push({ target, server, crowd, runs: [] });
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const entry of shuffled(entries))
      entry.runs.push(await measure(entry.server.pid, () => runHttp(entry.crowd.clients, calls)));
  }
  const rows = [today, before].map((target) => {
    const runs = entries.filter((e) => e.target === target).flatMap((e) => e.runs);
    const of = (key) => medianOf(runs, key);
    return {
      name: target.name,
      perSecond: of('perSecond'),
      p50us: of('p50us'),
      cpu: of('serverCpuPerCallUs'),
    };
  });
  for (const entry of entries) {
    await entry.crowd.close?.();
    await entry.server.close();
  }
  const [a, b] = rows;
  for (const r of rows)
    console.log(
      `${mode.padEnd(10)} ${r.name.padEnd(18)} ${int(r.perSecond).padStart(7)}/s  p50 ${int(r.p50us).padStart(6)} µs  ` +
        `CPU ${r.cpu.toFixed(1)} µs/call`,
    );
  console.log(
    `${mode.padEnd(10)} ${'ratio'.padEnd(18)} ${(a.perSecond / b.perSecond).toFixed(3)}× calls/s, ` +
      `${(a.cpu / b.cpu).toFixed(3)}× CPU per call (this checkout / ${commit})`,
  );
}
