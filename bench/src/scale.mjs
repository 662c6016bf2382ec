// `pnpm bench:scale`: issue 12's scale workloads on a real redis-server and a real HAProxy. Prints the figures
// and the two ratios against their targets, and writes bench/results/scale.md and scale.json.
// Usage: node bench/src/scale.mjs [--quick] [--only workers,store] [--repeat N] [--clients N] [--out PREFIX]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { missingParts, Processes } from './scale/procs.mjs';
import { renderScale, scaleGoals } from './scale/report.mjs';
import { storeWorkload, workersWorkload } from './scale/workloads.mjs';
import { benchDir } from './targets.mjs';

const USAGE =
  'usage: pnpm bench:scale [--quick] [--only workers,store] [--repeat N] [--clients N] [--out PATH-PREFIX]';

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      repeat: { type: 'string' },
      clients: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const number = (text, fallback) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`expected a positive integer, got "${text}"\n${USAGE}`);
    return n;
  };
  const only = values.only ? values.only.split(',') : ['workers', 'store'];
  for (const name of only)
    if (!['workers', 'store'].includes(name)) throw new Error(`unknown workload "${name}"\n${USAGE}`);
  const quick = values.quick;
  return {
    quick,
    only,
    repeat: number(values.repeat, quick ? 1 : 3),
    clients: number(values.clients, 32),
    storeClients: 64,
    spinCalls: quick ? 200 : 4_000,
    spinWarmup: quick ? 50 : 500,
    echoCalls: quick ? 500 : 20_000,
    echoWarmup: quick ? 200 : 2_000,
    storeCalls: quick ? 500 : 20_000,
    out: values.out ?? `${benchDir}results/${quick ? 'scale-quick' : 'scale'}`,
  };
}

const version = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).split('\n')[0].trim();
  } catch {
    return `${cmd}: not found`;
  }
};

const log = (text) => process.stderr.write(`${text}\n`);

async function main() {
  const opts = options();
  const cpus = os.cpus();
  const result = {
    command: `pnpm bench:scale${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? 'unknown',
      node: process.versions.node,
      redis: version('redis-server', ['--version']).replace(/ sha=.*/, ''),
      haproxy: version('haproxy', ['-v']).replace(/ - https.*/, ''),
      loadavg: os.loadavg(),
    },
    options: opts,
  };
  result.skipped = missingParts();
  const procs = new Processes();
  try {
    if (result.skipped === undefined) {
      const redis = await procs.redis();
      if (opts.only.includes('workers')) {
        log('workers: serve --redis --workers 1 and 2, each behind HAProxy, 2026-07-28 era');
        result.workers = await workersWorkload(procs, redis, opts, log);
      }
      if (opts.only.includes('store')) {
        log(`store: legacy stateful echo, ${opts.storeClients} sessions, in-memory against Redis`);
        result.store = await storeWorkload(procs, redis, opts, log);
      }
    }
  } finally {
    procs.close();
  }
  result.machine.loadavgEnd = os.loadavg();
  result.targets = scaleGoals(result);
  const markdown = renderScale(result);
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(`${opts.out}.md`, `${markdown}\n`);
  writeFileSync(`${opts.out}.json`, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${markdown}\n\nwritten to ${opts.out}.md and ${opts.out}.json\n`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
