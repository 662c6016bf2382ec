// Keeps the scale benchmark working: a quick run through a real HAProxy and redis-server must produce every
// figure and a verdict for both of issue 12's targets. It asserts nothing about speed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

interface Figures {
  perSecond: number;
  serverUs: number;
  redisUs: number;
  haproxyUs: number;
  rounds: number[];
}
interface ScaleResult {
  skipped?: string;
  workers: Record<'workers1' | 'workers2', { spin: Figures; echo: Figures }>;
  store: Record<'memory' | 'redis', Figures>;
  targets: { target: string; measured: string; ratio: number; verdict: string }[];
}

const script = fileURLToPath(new URL('../src/scale.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'entropic-bench-scale-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('measures --workers 1 and 2 behind HAProxy and both event stores, with a verdict per target', async () => {
  const out = join(dir, 'scale');
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--quick', '--out', out], {
    maxBuffer: 16 * 2 ** 20,
  });
  const result = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as ScaleResult;
  expect(result.skipped).toBeUndefined(); // .ci/run installs redis-server and haproxy
  for (const workers of ['workers1', 'workers2'] as const) {
    for (const kind of ['spin', 'echo'] as const) {
      const f = result.workers[workers][kind];
      expect(f.perSecond).toBeGreaterThan(0);
      expect(f.serverUs).toBeGreaterThan(0);
      expect(f.haproxyUs).toBeGreaterThan(0); // the calls went through HAProxy
    }
  }
  // The 1 ms tool costs at least 1 ms of serve CPU per call, counted over every process of --workers 2.
  expect(result.workers.workers2.spin.serverUs).toBeGreaterThanOrEqual(1000);
  expect(result.store.memory.redisUs).toBe(0);
  expect(result.store.redis.redisUs).toBeGreaterThan(0); // the Redis store really used Redis
  expect(result.targets.map((t) => t.verdict).every((v) => v === 'met' || v === 'NOT met')).toBe(true);
  expect(result.targets).toHaveLength(2);
  expect(stdout).toMatch(/--workers 2 ≥ 1\.6× --workers 1 \| [0-9.]+×/);
  expect(stdout).toMatch(/Redis store server CPU per call ≤ 2× in-memory \| [0-9.]+×/);
});
