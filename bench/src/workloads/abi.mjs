// Wall time of the ABI CLI: `entropic-abi check` (the gate, from the repository root) and
// `entropic-abi generate` (into a scratch directory, so the work tree is never touched).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rootDir } from '../targets.mjs';

const cli = `${rootDir}packages/codegen/dist/cli.js`;

function timeRuns(args, repeat) {
  const times = [];
  let last;
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    last = spawnSync(process.execPath, [cli, ...args], { cwd: rootDir, encoding: 'utf8', timeout: 120_000 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const output = `${last.stdout}${last.stderr}`.trim().split('\n').slice(-3).join(' ');
  return {
    medianMs: times[Math.floor(times.length / 2)],
    runsMs: times.map(Math.round),
    exitCode: last.status,
    output,
  };
}

export async function abiWorkload(opts, log) {
  const rows = [];
  if (!existsSync(cli)) {
    const skipped = 'not built: packages/codegen/dist/cli.js';
    rows.push({ target: 'check', label: 'entropic-abi check', skipped });
    rows.push({ target: 'generate', label: 'entropic-abi generate', skipped });
    return [{ id: 'abi', title: 'entropic-abi wall time', kind: 'abi', rows }];
  }
  const repeat = opts.quick ? 1 : 3;
  const check = timeRuns(['check'], repeat);
  log(`  check: ${Math.round(check.medianMs)} ms (exit ${check.exitCode})`);
  rows.push({ target: 'check', label: 'entropic-abi check', ...check });
  const out = mkdtempSync(join(tmpdir(), 'entropic-bench-abi-'));
  try {
    const generate = timeRuns(['generate', '--out', out, '--quiet'], repeat);
    log(`  generate: ${Math.round(generate.medianMs)} ms (exit ${generate.exitCode})`);
    rows.push({ target: 'generate', label: 'entropic-abi generate (into a scratch directory)', ...generate });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return [{ id: 'abi', title: 'entropic-abi wall time', kind: 'abi', rows }];
}
