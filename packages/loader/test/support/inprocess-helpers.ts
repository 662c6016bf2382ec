/** Shared pieces of the in-process tests: the compiled fixtures and the timing fixture's answers. */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadOptions, PluginAnswer } from '../../src/base/types.js';
import type { InProcessPlugin } from '../../src/inprocess/index.js';
import { loadPlugin } from '../../src/load.js';

export { tempDir } from '@entropic-mcp/test-kit/temp';

export const LOADER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(LOADER_ROOT, 'test', 'fixtures', 'build');
export const TIMING = join(FIXTURES, 'inproc_timing.so');

/** Builds the fixtures (the package's test script does too; this keeps a single file runnable). */
export function buildFixtures(): void {
  execFileSync('make', ['-s', '-C', join(LOADER_ROOT, 'test', 'fixtures')], { stdio: 'inherit' });
}

export async function loadInProcess(path: string, options: LoadOptions = {}): Promise<InProcessPlugin> {
  return (await loadPlugin(path, { ...options, isolation: 'none' })) as InProcessPlugin;
}

/** What the timing fixture's `sleep` reports: CLOCK_MONOTONIC microseconds, overlap seen, calling thread. */
export interface Span {
  start: number;
  end: number;
  overlap: number;
  thread: number;
}

export function span(answer: PluginAnswer): Span {
  return JSON.parse(answer.result) as Span;
}

/** Microseconds on the same clock the fixture reads (libuv's hrtime is CLOCK_MONOTONIC). */
export function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
