// A CPU-bound plugin tool (`spin`: 2 ms of CPU per call) through `serve --stdio` with one instance and with two,
// 8 calls in flight: what `--instances 2` buys on a machine with at least two cores.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { best, measure } from '../measure.mjs';
import { StdioPeer } from '../stdio-client.mjs';
import { abiIncludeDir, faultyFixture, spinTarget } from '../targets.mjs';

export const SPIN_INFLIGHT = 8;

function buildSpinPlugin() {
  const out = join(mkdtempSync(join(tmpdir(), 'entropic-bench-')), 'libfaulty.so');
  const flags = ['-std=c11', '-O2', '-D_DEFAULT_SOURCE', '-fPIC', '-shared', `-I${abiIncludeDir}`];
  execFileSync('cc', [...flags, '-o', out, faultyFixture]);
  return out;
}

export async function instancesWorkload(opts, log) {
  const so = buildSpinPlugin();
  const live = [];
  for (const target of [spinTarget(so, 1), spinTarget(so, 2)]) {
    const peer = new StdioPeer(target);
    await peer.initialize();
    await peer.run(Math.ceil(opts.spinCalls / 10), SPIN_INFLIGHT);
    live.push({ target, peer, runs: [] });
  }
  for (let rep = 0; rep < opts.repeat; rep++) {
    for (const entry of live) {
      entry.runs.push(await measure(entry.peer.pid, () => entry.peer.run(opts.spinCalls, SPIN_INFLIGHT)));
      log(
        `  ${entry.target.name} #${rep + 1}: ${Math.round(entry.runs.at(-1).perSecond)}/s at ${SPIN_INFLIGHT}`,
      );
    }
  }
  const rows = [];
  for (const entry of live) {
    const memory = entry.peer.memory('VmHWM');
    rows.push({
      target: entry.target.name,
      label: entry.target.label,
      peakRss: memory.self,
      childRss: memory.children,
      ...best(entry.runs),
    });
    await entry.peer.close();
  }
  return [
    {
      id: 'instances',
      title: `CPU-bound plugin tool (2 ms of CPU a call), ${SPIN_INFLIGHT} in flight over stdio`,
      rows,
    },
  ];
}
