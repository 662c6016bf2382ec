// `pnpm bench`: run every workload against every server with one load generator, print the tables and
// write them to bench/results/latest.md and latest.json. `--quick` is a seconds-long smoke run.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkGoals } from './goals.mjs';
import { renderMarkdown } from './report.mjs';
import { benchDir, httpTargets, stdioTargets } from './targets.mjs';
import { abiWorkload } from './workloads/abi.mjs';
import { growthWorkload } from './workloads/growth.mjs';
import { httpWorkload } from './workloads/http.mjs';
import { instancesWorkload } from './workloads/instances.mjs';
import { modernWorkload } from './workloads/modern.mjs';
import { sandboxWorkload } from './workloads/sandbox.mjs';
import { stdioWorkload } from './workloads/stdio.mjs';
import { telemetryWorkload } from './workloads/telemetry.mjs';

const WORKLOADS = ['stdio', 'http', 'modern', 'instances', 'growth', 'abi', 'telemetry', 'sandbox'];
const USAGE = `usage: pnpm bench [--quick] [--only ${WORKLOADS.join(',')}] [--repeat N] [--calls N] [--warmup N]
                  [--http-calls N] [--spin-calls N] [--growth-http-full] [--baseline GIT-REF] [--out PATH-PREFIX]`;

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      repeat: { type: 'string' },
      calls: { type: 'string' },
      warmup: { type: 'string' },
      'http-calls': { type: 'string' },
      'spin-calls': { type: 'string' },
      'growth-http-full': { type: 'boolean', default: false },
      baseline: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick;
  const only = values.only ? values.only.split(',') : WORKLOADS;
  for (const name of only)
    if (!WORKLOADS.includes(name)) throw new Error(`unknown workload "${name}"\n${USAGE}`);
  const number = (text, fallback) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`expected a positive integer, got "${text}"\n${USAGE}`);
    return n;
  };
  return {
    quick,
    only,
    repeat: number(values.repeat, quick ? 1 : 3),
    calls: number(values.calls, quick ? 64 : 20_000),
    warmup: number(values.warmup, quick ? 5 : 2_000),
    httpCalls: number(values['http-calls'], quick ? 64 : 10_000),
    httpWarmup: quick ? 5 : 1_000,
    spinCalls: number(values['spin-calls'], quick ? 50 : 3_000),
    inflight: 64,
    clients: 64,
    growthStdio: quick ? [500, 1_000] : [100_000, 250_000, 500_000, 750_000, 1_000_000],
    growthHttp: quick
      ? [128, 256]
      : values['growth-http-full']
        ? [100_000, 250_000, 500_000, 750_000, 1_000_000]
        : [100_000, 200_000, 300_000],
    baseline: values.baseline,
    // `pnpm bench` runs this in bench/: a relative --out is read from where pnpm was started (INIT_CWD).
    out:
      values.out === undefined
        ? `${benchDir}results/${quick ? 'quick' : 'latest'}`
        : resolve(process.env.INIT_CWD ?? process.cwd(), values.out),
  };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memory: os.totalmem(),
    node: process.versions.node,
    platform: `${os.type()} ${os.release()}`,
    loadavg: os.loadavg(),
  };
}

const log = (text) => process.stderr.write(`${text}\n`);

async function main() {
  const opts = options();
  const result = {
    command: `pnpm bench${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
    machine: machine(),
    options: opts,
    tables: [],
  };
  const stdio = stdioTargets();
  const http = httpTargets();
  const httpOpts = { ...opts, calls: opts.httpCalls, warmup: opts.httpWarmup };
  if (opts.only.includes('stdio')) {
    log('stdio');
    result.tables.push(...(await stdioWorkload(stdio, opts, log)));
  }
  if (opts.only.includes('http')) {
    log('http');
    result.tables.push(...(await httpWorkload(http, httpOpts, log)));
  }
  if (opts.only.includes('modern')) {
    log('modern (2026-07-28)');
    result.tables.push(...(await modernWorkload({ stdio, http }, { stdio: opts, http: httpOpts }, log)));
  }
  if (opts.only.includes('instances')) {
    log('instances');
    result.tables.push(...(await instancesWorkload(opts, log)));
  }
  if (opts.only.includes('growth')) {
    log('growth');
    const pick = (list) => list.filter((t) => t.name === 'entropic' || t.name === 'bare');
    result.tables.push(...(await growthWorkload({ stdio: pick(stdio), http: pick(http) }, opts, log)));
  }
  if (opts.only.includes('telemetry')) {
    log('telemetry');
    result.tables.push(...(await telemetryWorkload(opts, log)));
  }
  if (opts.only.includes('sandbox')) {
    log('sandbox');
    result.tables.push(...(await sandboxWorkload(opts, log)));
  }
  if (opts.only.includes('abi')) {
    log('abi');
    result.tables.push(...(await abiWorkload(opts, log)));
  }
  result.machine.loadavgEnd = os.loadavg();
  result.targets = checkGoals(result.tables, opts);
  const markdown = renderMarkdown(result);
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(`${opts.out}.md`, `${markdown}\n`);
  writeFileSync(`${opts.out}.json`, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${markdown}\nwritten to ${opts.out}.md and ${opts.out}.json\n`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
