// Compares the C plugin path of this checkout with another build of the loader, over stdio with one client
// pattern: the TS echo, SDK v2 and both plugin modes of each build, several server processes per target (on a
// shared VM one process of a build can run a third faster or slower than another of the same build, for as
// long as it lives), every round visiting every process in a new random order, medians of all the runs. Prints
// calls/s with the ratios to the TS echo and to SDK v2, the median latency, server CPU per call (+ its plugin
// host's), and how often the server and its host were put on a CPU per call and how long they waited for one.
//
// usage: node bench/src/compare.mjs [--before PATH] [--client each|batch] [--inflight N] [--procs N]
//                                   [--rounds N] [--calls N]
// --before: a built packages/loader of another checkout (its dist/, build/Release/ and node_modules/); without
// it only this checkout's targets run.
import { parseArgs } from 'node:util';
import { measure } from './measure.mjs';
import { schedTreeOf } from './proc.mjs';
import { medianOf, shuffled } from './stats.mjs';
import { CLIENTS, StdioPeer } from './stdio-client.mjs';
import { fromBuild, stdioTargets } from './targets.mjs';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    client: { type: 'string', default: 'each' },
    inflight: { type: 'string', default: '64' },
    procs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '8' },
    calls: { type: 'string', default: '6000' },
  },
});
if (!(values.client in CLIENTS)) throw new Error(`--client is one of ${Object.keys(CLIENTS).join(', ')}`);
const [inflight, procs, rounds, calls] = ['inflight', 'procs', 'rounds', 'calls'].map((k) => {
  const n = Number(values[k]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${k} expects a positive integer, got ${values[k]}`);
  return n;
});

const wanted = ['entropic', 'sdk-v2', 'plugin-isolated', 'plugin-inprocess'];
const targets = stdioTargets().filter((t) => wanted.includes(t.name));
for (const t of targets) {
  const skipped = t.skip?.();
  if (skipped) throw new Error(`${t.name}: ${skipped}`);
}
if (values.before !== undefined) {
  for (const t of targets.filter((t) => t.name.startsWith('plugin-')))
    targets.push(fromBuild(t, values.before));
}

/** One timed run of a process, with the scheduler's counters for the server and its host per call. */
async function run(entry) {
  const before = schedTreeOf(entry.peer.pid);
  const result = await measure(entry.peer.pid, () => entry.peer.run(calls, inflight, values.client));
  const after = schedTreeOf(entry.peer.pid);
  const per = (side, key) => (after[side][key] - before[side][key]) / calls;
  return {
    ...result,
    slices: per('self', 'slices'),
    hostSlices: per('children', 'slices'),
    waitUs: per('self', 'waitNs') / 1000,
    hostWaitUs: per('children', 'waitNs') / 1000,
  };
}

const entries = [];
for (const target of targets) {
  for (let k = 0; k < procs; k++) {
    const peer = new StdioPeer(target);
    await peer.initialize();
    await peer.run(2000, inflight, values.client);
    entries.push({ target, peer, runs: [] });
  }
}
for (let round = 0; round < rounds; round++) {
  for (const entry of shuffled(entries)) entry.runs.push(await run(entry));
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
for (const entry of entries) await entry.peer.close();

const rows = targets.map((target) => {
  const mine = entries.filter((e) => e.target === target);
  const runs = mine.flatMap((e) => e.runs);
  const of = (key) => medianOf(runs, key);
  return {
    name: target.name,
    perSecond: of('perSecond'),
    p50us: of('p50us'),
    cpu: of('serverCpuPerCallUs'),
    hostCpu: of('hostCpuPerCallUs'),
    slices: of('slices'),
    hostSlices: of('hostSlices'),
    waitUs: of('waitUs'),
    hostWaitUs: of('hostWaitUs'),
    processes: mine.map((e) => Math.round(medianOf(e.runs, 'perSecond'))),
  };
});
const ts = rows.find((r) => r.name === 'entropic');
const v2 = rows.find((r) => r.name === 'sdk-v2');
const int = (n) => Math.round(n).toLocaleString('en-US');
console.log(
  `${new Date().toISOString()}: ${inflight} in flight, ${CLIENTS[values.client]}; ${procs} processes per target × ` +
    `${rounds} rounds × ${int(calls)} calls; medians of the ${procs * rounds} runs of each target`,
);
for (const r of rows) {
  const host = r.name.includes('isolated') ? ` (+${r.hostCpu.toFixed(2)} host)` : '';
  const hostSched = r.name.includes('isolated') ? ` (+${r.hostSlices.toFixed(3)} host)` : '';
  const hostWait = r.name.includes('isolated') ? ` (+${r.hostWaitUs.toFixed(2)} host)` : '';
  console.log(
    `${r.name.padEnd(26)} ${int(r.perSecond).padStart(9)}/s  ${(r.perSecond / ts.perSecond).toFixed(2)}× TS echo  ` +
      `${(r.perSecond / v2.perSecond).toFixed(2)}× SDK v2  p50 ${int(r.p50us)} µs  CPU ${r.cpu.toFixed(2)}${host} µs/call  ` +
      `on a CPU ${r.slices.toFixed(3)}${hostSched}/call  waited ${r.waitUs.toFixed(2)}${hostWait} µs/call  ` +
      `processes ${r.processes.map(int).join(' / ')}`,
  );
}
