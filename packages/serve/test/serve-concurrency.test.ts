/**
 * `serve` lets calls to different plugins run together: eight plugins (each in its own host process)
 * each get one slow call at once, and the plugins' own clocks show how many overlapped.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  FIXTURE_SOURCES,
  type HttpServer,
  INCLUDE_DIR,
  runServe,
  startHttp,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

const PLUGINS = 8;
const SLEEP_MS = 1000;
let paths: string[] = [];

/** The timing fixture compiled under eight plugin names, so all of them can be served together. */
beforeAll(() => {
  const dir = tempDir('concurrency');
  const source = readFileSync(join(FIXTURE_SOURCES, 'plugins', 'inproc_timing.c'), 'utf8');
  paths = Array.from({ length: PLUGINS }, (_, i) => {
    const c = join(dir, `timing${i}.c`);
    writeFileSync(c, source.replace('return "timing";', `return "timing${i}";`));
    const so = join(dir, `libtiming${i}.so`);
    execFileSync('cc', ['-std=gnu11', '-O1', '-fPIC', '-shared', `-I${INCLUDE_DIR}`, '-o', so, c]);
    return so;
  });
});

/** Most calls running at one moment, from the [start, end] microsecond stamps the plugins report. */
function maxOverlap(spans: { start: number; end: number }[]): number {
  let most = 0;
  for (const s of spans) {
    const running = spans.filter((o) => o.start <= s.start && s.start < o.end).length;
    most = Math.max(most, running);
  }
  return most;
}

async function slowCallsThrough(extra: string[]): Promise<{ overlap: number; elapsedMs: number }> {
  const server: HttpServer = await startHttp([...paths.flatMap((p) => ['--plugin', p]), ...extra]);
  let client: Client | undefined;
  try {
    client = await connectHttp(server.url);
    const started = Date.now();
    const results = await Promise.all(
      paths.map((_, i) => client?.callTool({ name: `timing${i}.sleep`, arguments: { ms: SLEEP_MS } })),
    );
    const elapsedMs = Date.now() - started;
    const spans = results.map((r) => JSON.parse(textOf(r)) as { start: number; end: number });
    return { overlap: maxOverlap(spans), elapsedMs };
  } finally {
    await client?.close();
    await server.stop();
  }
}

describe('serve: calls in flight across plugins', () => {
  let all: { overlap: number; elapsedMs: number };
  let four: { overlap: number; elapsedMs: number };
  beforeAll(async () => {
    all = await slowCallsThrough([]);
    four = await slowCallsThrough(['--concurrency', '4']);
  });

  it('runs a slow call on each of eight plugins at once by default', () => {
    expect(all.overlap).toBe(PLUGINS);
    // Eight overlapping calls take about one call's time; four at a time would need two.
    expect(all.elapsedMs).toBeLessThan(2 * SLEEP_MS);
  });

  it('--concurrency 4 holds the others back', () => {
    expect(four.overlap).toBeLessThanOrEqual(4);
    expect(four.elapsedMs).toBeGreaterThanOrEqual(2 * SLEEP_MS);
  });
});

describe('serve --concurrency', () => {
  it.each(['0', '-3', 'many', '1.5'])('refuses %s, naming the option', async (value) => {
    const r = await runServe(['--plugin', paths[0] as string, '--concurrency', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--concurrency/);
  });
});
