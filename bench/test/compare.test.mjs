// Keeps the build comparison working: a tiny run against this checkout's own loader as the "before" build must
// print every target with its ratios and counters. It asserts nothing about speed.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('../src/compare.mjs', import.meta.url));
const loader = fileURLToPath(new URL('../../packages/loader', import.meta.url));

it('prints every target of both builds with its ratios, CPU and scheduling per call', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, '--before', loader, '--procs', '1', '--rounds', '2', '--calls', '200'],
    { maxBuffer: 4 * 2 ** 20 },
  );
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toMatch(
    /64 in flight, per-message client .*1 processes per target × 2 rounds × 200 calls/,
  );
  const names = lines.slice(1).map((line) => line.slice(0, 26).trim());
  expect(names).toEqual([
    'entropic',
    'plugin-isolated',
    'plugin-inprocess',
    'sdk-v2',
    'plugin-isolated (before)',
    'plugin-inprocess (before)',
  ]);
  for (const line of lines.slice(1)) {
    expect(line).toMatch(/[\d,]+\/s {2}[\d.]+× TS echo {2}[\d.]+× SDK v2 {2}p50 [\d,]+ µs {2}CPU [\d.]+/);
    expect(line).toMatch(/on a CPU [\d.]+.*waited [\d.]+/);
  }
  expect(lines[2]).toMatch(/CPU [\d.]+ \(\+[\d.]+ host\) µs\/call/); // the isolated host's CPU beside the server's
});

it('refuses a --before that is not a built loader, naming what is missing', async () => {
  await expect(
    promisify(execFile)(process.execPath, [script, '--before', '/nonexistent', '--rounds', '1']),
  ).rejects.toThrow(/\/nonexistent is not a built packages\/loader: it has no dist\/cli\.js/);
});
