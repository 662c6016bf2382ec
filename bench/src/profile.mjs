// Profile one server under one workload with `node --cpu-prof` and print where its time goes.
// usage: node src/profile.mjs [--workload stdio|sse|json|stateless|modern] [--target entropic|sdk-v1|sdk-v2|bare]
//                             [--calls N] [--out DIR] [--client batch|each]
// (stdio: `--client each` drives it with the per-message client; see CLIENTS in stdio-client.mjs)
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openClients, runHttp } from './http-client.mjs';
import { startHttpServer } from './http-server.mjs';
import { summariseProfile } from './profile-summary.mjs';
import { summarise } from './stats.mjs';
import { StdioPeer } from './stdio-client.mjs';
import { benchDir, httpTargets, stdioTargets } from './targets.mjs';

const { values } = parseArgs({
  options: {
    workload: { type: 'string', default: 'stdio' },
    target: { type: 'string', default: 'entropic' },
    calls: { type: 'string' },
    out: { type: 'string', default: `${benchDir}results/profiles` },
    client: { type: 'string', default: 'batch' },
  },
});
const stdio = values.workload === 'stdio';
const calls = Number(values.calls ?? (stdio ? 200_000 : 40_000));
const perMessage = stdio && values.client === 'each';
const dir = join(values.out, `${values.target}-${values.workload}${perMessage ? '-each' : ''}`);
mkdirSync(dir, { recursive: true });
const started = Date.now();

const pick = (list) => {
  const target = list.find((t) => t.name === values.target);
  if (!target) throw new Error(`unknown target ${values.target}`);
  const skipped = target.skip?.();
  if (skipped) throw new Error(`${values.target}: ${skipped}`);
  const [script, ...rest] = target.args;
  return {
    ...target,
    args: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250', script, ...rest],
  };
};

let figures;
if (stdio) {
  const peer = new StdioPeer(pick(stdioTargets()));
  await peer.initialize();
  await peer.run(2_000, 64, values.client);
  figures = summarise(await peer.run(calls, 64, values.client));
  await peer.close();
} else {
  const target = pick(httpTargets());
  const server = await startHttpServer(target, values.workload);
  const crowd = await openClients(server.url, target, 64, values.workload === 'modern' ? 'modern' : 'legacy');
  await runHttp(crowd.clients, 2_000);
  figures = summarise(await runHttp(crowd.clients, calls));
  crowd.close();
  await server.close();
}
const headline = `${values.target} ${values.workload}${perMessage ? ' (per-message client)' : ''}: ${calls} calls at 64, ${Math.round(figures.perSecond)}/s (profiled)`;
const newest = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .filter((f) => statSync(f).mtimeMs >= started)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no profile written in ${dir} (did the server exit cleanly?)`);
const load = loadavg()
  .map((n) => n.toFixed(2))
  .join(' ');
const text = `${headline}\n${new Date().toISOString()}, load average ${load}\n${summariseProfile(newest)}\n`;
writeFileSync(join(dir, 'summary.txt'), text);
console.log(text);
