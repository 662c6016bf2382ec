#!/usr/bin/env node
// The long fuzz mode: every fuzz property (test/fuzz-*.test.ts) with N cases each, no time limit.
//   node bench/fuzz-long.mjs [N]        default N = 100000 (11 properties: 11 N cases in all)
// Needs a build (dist/) for the stdio child. Prints the total cases, the time taken and the result.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/fuzz-long.mjs [cases per property]');
  process.exit(2);
}
const started = Date.now();
const result = spawnSync('pnpm', ['exec', 'vitest', 'run', 'test/fuzz-', '--reporter=verbose'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs) },
});
const seconds = ((Date.now() - started) / 1000).toFixed(0);
const properties = 11;
console.log(
  `\nfuzz-long: ${properties} properties x ${runs} cases = ${properties * runs} cases in ${seconds} s: ${result.status === 0 ? 'all passed' : `FAILED (exit ${result.status})`}`,
);
process.exit(result.status ?? 1);
