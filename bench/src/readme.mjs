// Rewrite the figures block of bench/README.md from results/latest.json (the last full run).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSummary } from './summary.mjs';
import { benchDir } from './targets.mjs';

const START = '<!-- figures:start (node bench/src/readme.mjs) -->';
const END = '<!-- figures:end -->';
const result = JSON.parse(readFileSync(`${benchDir}results/latest.json`, 'utf8'));
if (result.options.quick) throw new Error('results/latest.json holds a --quick run; run pnpm bench first');
const m = result.machine;
const load = (avg) => (avg ? avg.map((n) => n.toFixed(1)).join(' / ') : 'not recorded');
function abiLine(run) {
  const rows = run.tables.find((t) => t.id === 'abi')?.rows ?? [];
  const ms = (name) => rows.find((r) => r.target === name)?.medianMs;
  const check = ms('check');
  const generate = ms('generate');
  if (check === undefined || generate === undefined) return 'entropic-abi: not measured in this run.';
  return `\`entropic-abi check\`: ${(check / 1000).toFixed(2)} s; \`entropic-abi generate\`: ${(generate / 1000).toFixed(2)} s (median of 3 runs, wall time).`;
}

const block = [
  START,
  `Measured with \`${result.command}\` on ${result.date.slice(0, 16).replace('T', ' ')} UTC: ${m.cpus}× ${m.cpuModel} ` +
    `(vCPUs), Node ${m.node}, load generator and server on the same machine; load average ${load(m.loadavg)} at ` +
    `the start and ${load(m.loadavgEnd)} at the end (1/5/15 min) from other work on the machine, so calls/s move ` +
    `by ±30 % between runs: compare figures of one run only. Best of ${result.options.repeat} interleaved ` +
    'rounds; every table, with ' +
    'p99, CPU per call and each round, is in `bench/results/latest.md`.',
  '',
  renderSummary(result),
  '',
  abiLine(result),
  '',
  '| target (issues 6, 10, 11 and 24) | measured | verdict |',
  '| --- | --- | --- |',
  ...result.targets.map((t) => `| ${t.target} | ${t.measured} | ${t.verdict} |`),
  END,
].join('\n');
const path = `${benchDir}README.md`;
const text = readFileSync(path, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from === -1 || to === -1) throw new Error(`${path} has no ${START} … ${END} block`);
writeFileSync(path, text.slice(0, from) + block + text.slice(to + END.length));
console.log(block);
