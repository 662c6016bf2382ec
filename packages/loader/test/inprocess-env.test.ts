/**
 * The in-process addon across Node environments: a worker thread has its own instances, destroyed when the
 * worker ends, and a missing addon is reported clearly instead of crashing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtures, LOADER_ROOT, TIMING, tempDir } from './support/inprocess-helpers.js';

const ADDON = join(LOADER_ROOT, 'build', 'Release', 'entropic_loader.node');

beforeAll(() => buildFixtures());

describe('in-process addon and Node environments', () => {
  it('destroys the instances of a worker thread when the worker is terminated', async () => {
    const log = join(tempDir('inproc-worker'), 'destroy.log');
    const source = `
      const { parentPort } = require('node:worker_threads');
      const addon = require(${JSON.stringify(ADDON)});
      class PluginError extends Error {}
      addon.setErrorClass(PluginError);
      // Answer frames: u32 length, u32 id, u8 status, payload (native/wire/wire.h).
      const p = new addon.NativePlugin(${JSON.stringify(TIMING)}, (frames) => {
        for (let at = 0; at < frames.length; at += 4 + frames.readUInt32LE(at)) {
          const end = at + 4 + frames.readUInt32LE(at);
          if (frames.readUInt32LE(at + 4) === 3) parentPort.postMessage(frames.toString('utf8', at + 9, end));
        }
      });
      p.ref();
      const config = JSON.stringify({ log: ${JSON.stringify(log)} });
      p.submit(['C2', config, 'E3', 'sleep', '{"ms":5}', ''].join('\\0'));
    `;
    const worker = new Worker(source, { eval: true });
    const answer = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(JSON.parse(answer).result).toContain('"overlap":1');
    await worker.terminate();
    expect(readFileSync(log, 'utf8')).toBe('destroyed after 1 sleeps\n');
  });

  it('survives workers that end (or throw) while their instance is still loading or answering', () => {
    // Each instance answers its load on its own, so an answer may be on its way while the worker's
    // environment is torn down; delivering it then must neither throw into C++ nor abort the process.
    const script = `
      const { Worker } = require('node:worker_threads');
      (async () => {
        for (let i = 0; i < 16; i++) {
          const w = new Worker(\`
            const addon = require(\${JSON.stringify(${JSON.stringify(ADDON)})});
            const p = new addon.NativePlugin(\${JSON.stringify(${JSON.stringify(TIMING)})}, () => { throw new Error('in the callback'); });
            p.ref();
            if (\${i} % 2 === 1) throw new Error('boom');
            setTimeout(() => process.exit(0), \${i % 4});
          \`, { eval: true });
          w.on('error', () => {});
          await new Promise((resolve) => w.once('exit', resolve));
        }
        console.log('survived');
      })();
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stdout.trim()).toBe('survived');
    expect([child.status, child.signal]).toEqual([0, null]);
    expect(child.stderr).not.toMatch(/terminate called|Aborted/);
  });

  it('reports a missing addon with ENTROPIC_HOST_UNAVAILABLE and how to build it', () => {
    const script = `
      const { loadPlugin } = await import(${JSON.stringify(join(LOADER_ROOT, 'dist', 'load.js'))});
      try {
        await loadPlugin(${JSON.stringify(TIMING)}, { isolation: 'none' });
        console.log('loaded');
      } catch (error) {
        console.log(JSON.stringify({ code: error.code, message: error.message }));
      }
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, ENTROPIC_LOADER_ADDON: '/nonexistent/entropic_loader.node' },
      timeout: 60_000,
    });
    expect(child.status).toBe(0);
    const reported = JSON.parse(child.stdout) as { code: string; message: string };
    expect(reported.code).toBe('ENTROPIC_HOST_UNAVAILABLE');
    expect(reported.message).toContain('/nonexistent/entropic_loader.node');
    expect(reported.message).toMatch(/build|isolation/);
  });
});
