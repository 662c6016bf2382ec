/**
 * The in-process mode's threading promises: instances run in parallel, calls into one instance never overlap,
 * and neither the JS thread nor the libuv threadpool waits on a plugin. Evidence comes from the timing
 * fixture's own clock readings and from ordering, not from tight time limits.
 */
import { pbkdf2 } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Addon } from '../src/addon/binding.js';
import type { InProcessPlugin } from '../src/inprocess/index.js';
import { FrameReader, Op, requestText } from '../src/wire/frames.js';
import {
  buildFixtures,
  LOADER_ROOT,
  loadInProcess,
  nowUs,
  type Span,
  span,
  TIMING,
} from './support/inprocess-helpers.js';

const opened: InProcessPlugin[] = [];

async function open(): Promise<InProcessPlugin> {
  const plugin = await loadInProcess(TIMING);
  opened.push(plugin);
  return plugin;
}

beforeAll(() => buildFixtures());
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

describe('in-process threading', () => {
  it('runs calls to two instances at the same time, each on its own thread', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    const answers = await Promise.all([a.execute('sleep', { ms: 600 }), b.execute('sleep', { ms: 600 })]);
    const [x, y] = answers.map(span) as [Span, Span];
    // Each interval began before the other ended: they overlapped in time.
    expect(x.start).toBeLessThan(y.end);
    expect(y.start).toBeLessThan(x.end);
    expect(x.thread).not.toBe(y.thread);
  });

  it('never runs two calls into one instance at once, and keeps their order', async () => {
    const plugin = await open();
    const spans = (await Promise.all([1, 2, 3, 4].map(() => plugin.execute('sleep', { ms: 80 })))).map(span);
    for (const s of spans) expect(s.overlap).toBe(1);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]?.start).toBeGreaterThanOrEqual(spans[i - 1]?.end ?? Number.POSITIVE_INFINITY);
    }
    expect(new Set(spans.map((s) => s.thread)).size).toBe(1);
  });

  it('keeps the JS thread free during a slow call', async () => {
    const plugin = await open();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await plugin.execute('sleep', { ms: 800 });
    clearInterval(timer);
    // A blocked JS thread would see no tick at all; a free one sees dozens.
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('leaves the libuv threadpool to fs and crypto while 8 slow calls are in flight', async () => {
    const plugins = await Promise.all(Array.from({ length: 8 }, () => open()));
    let slowDone = 0;
    const slow = plugins.map((p) => p.execute('sleep', { ms: 2500 }).then(() => slowDone++));
    const pool = Array.from({ length: 8 }, (_, i) =>
      i % 2 === 0
        ? readFile(TIMING).then(() => slowDone)
        : new Promise<number>((resolve, reject) =>
            pbkdf2('secret', 'salt', 1000, 32, 'sha256', (error) =>
              error ? reject(error) : resolve(slowDone),
            ),
          ),
    );
    // Every threadpool job finished while all eight plugin calls were still running.
    expect(await Promise.all(pool)).toEqual(new Array(8).fill(0));
    await Promise.all(slow);
    expect(slowDone).toBe(8);
  });

  it('hands finished calls back in batches, not one wake-up per call', async () => {
    const require = createRequire(import.meta.url);
    const addon = require(join(LOADER_ROOT, 'build', 'Release', 'entropic_loader.node')) as Addon;
    const batches: number[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    let answers = 0;
    const reader = new FrameReader(() => answers++);
    // The load's ready frame (id 0), then the answers to 1000 calls.
    const native = new addon.NativePlugin(TIMING, (frames) => {
      const before = answers;
      reader.push(frames);
      batches.push(answers - before);
      if (answers === 1001) done();
    });
    native.ref();
    let text = '';
    for (let id = 1; id <= 1000; id++) text += requestText(id, Op.execute, 'echo', `{"id":${id}}`);
    expect(native.submit(text)).toBe(true);
    // Keep the JS thread busy while the instance thread answers all of them.
    const until = Date.now() + 300;
    while (Date.now() < until) {}
    await finished;
    native.shutdown();
    expect(batches.reduce((a, b) => a + b, 0)).toBe(1001);
    expect(batches.length).toBeLessThan(20);
  });

  it('runs executeSync on the JS thread after every queued call', async () => {
    const plugin = await open();
    const queued = plugin.execute('sleep', { ms: 300 });
    const answer = plugin.executeSync('echo', { hello: 'world' });
    const after = nowUs();
    expect(JSON.parse(answer.result)).toEqual({ hello: 'world' });
    // The queued sleep had finished inside the plugin before executeSync returned.
    expect(span(await queued).end).toBeLessThanOrEqual(after);
  });

  it('answers executeSync in a loop', async () => {
    const plugin = await open();
    for (let i = 0; i < 1000; i++) {
      expect(plugin.executeSync('echo', { i }).result).toBe(`{"i":${i}}`);
    }
  });
});
