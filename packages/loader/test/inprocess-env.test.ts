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
      const p = new addon.NativePlugin(${JSON.stringify(TIMING)}, (list) => {
        if (list.includes(3)) parentPort.postMessage(list[list.indexOf(3) + 1]);
      });
      p.ref();
      const config = JSON.stringify({ log: ${JSON.stringify(log)} });
      const text = [${JSON.stringify(TIMING)}, '', config, '', 'sleep', '{"ms":5}', ''].join('\\0');
      p.submit(new Uint32Array([1, 0, 2, 3, 3, 2]), text);
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
