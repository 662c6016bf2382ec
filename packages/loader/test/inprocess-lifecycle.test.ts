/**
 * The in-process mode's lifecycle: destroy comes after every earlier call, calls after close fail clearly, a
 * time limit or an abort rejects at once while the plugin's late answer is dropped, and leaving Node with
 * open plugins destroys them without a crash.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PluginError } from '../src/base/errors.js';
import {
  buildFixtures,
  FIXTURES,
  LOADER_ROOT,
  loadInProcess,
  span,
  TIMING,
  tempDir,
} from './support/inprocess-helpers.js';

beforeAll(() => buildFixtures());

function logFile(): string {
  return join(tempDir('inproc-log'), 'destroy.log');
}

describe('in-process lifecycle', () => {
  it('destroys after every earlier call, then refuses new calls', async () => {
    const log = logFile();
    const plugin = await loadInProcess(TIMING, { config: { log } });
    const order: string[] = [];
    const calls = [1, 2, 3].map((i) =>
      plugin.execute('sleep', { ms: 60 }).then(() => order.push(`call ${i}`)),
    );
    const closed = plugin.close().then(() => order.push('closed'));
    expect(plugin.close()).toBe(plugin.close());
    await Promise.all([...calls, closed]);
    expect(order).toEqual(['call 1', 'call 2', 'call 3', 'closed']);
    expect(readFileSync(log, 'utf8')).toBe('destroyed after 3 sleeps\n');

    await expect(plugin.execute('echo', {})).rejects.toMatchObject({ code: 'ENTROPIC_PLUGIN_CLOSED' });
    expect(() => plugin.executeSync('echo', {})).toThrow(/is closed/);
  });

  it('rejects a call that runs past its time limit and drops the late answer', async () => {
    const plugin = await loadInProcess(TIMING);
    const started = Date.now();
    const late = plugin.execute('sleep', { ms: 3000 }, { timeoutMs: 50 });
    await expect(late).rejects.toBeInstanceOf(PluginError);
    await expect(late).rejects.toMatchObject({ code: 'ENTROPIC_ERROR_TIMEOUT', errno: 11, plugin: 'timing' });
    // Rejected at its time limit, not when the plugin's 3 s sleep ends (a bound a loaded machine keeps).
    expect(Date.now() - started).toBeLessThan(2500);
    // The instance still works; its next call waits for the abandoned one (calls never overlap).
    const next = span(await plugin.execute('sleep', { ms: 1 }));
    expect(next.overlap).toBe(1);
    await plugin.close();
  });

  it('drops a queued call whose signal fires before it starts', async () => {
    const log = logFile();
    const plugin = await loadInProcess(TIMING, { config: { log } });
    const first = plugin.execute('sleep', { ms: 300 });
    const controller = new AbortController();
    const second = plugin.execute('sleep', { ms: 300 }, { signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'ENTROPIC_ERROR_CANCELLED' });
    await first;
    await plugin.close();
    // Only the first sleep ever reached the plugin.
    expect(readFileSync(log, 'utf8')).toBe('destroyed after 1 sleeps\n');
    const aborted = AbortSignal.abort();
    await expect(plugin.execute('echo', {}, { signal: aborted })).rejects.toMatchObject({
      code: 'ENTROPIC_PLUGIN_CLOSED',
    });
  });

  it('turns a failing configure into an error with the contract name', async () => {
    const plugin = await loadInProcess(TIMING);
    await expect(plugin.configure({ log: 'x'.repeat(600) })).rejects.toMatchObject({
      code: 'ENTROPIC_ERROR_INVALID_CONFIG',
      errno: 2,
      message: expect.stringContaining('entropic_mcp_server_configure'),
    });
    await plugin.close();
  });

  it('rejects a file that is not a shared library with a real PluginError', async () => {
    const path = join(FIXTURES, 'not-elf.so');
    const error = await loadInProcess(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ code: 'ENTROPIC_ERROR_PLUGIN_LOAD_FAILED', errno: 10, path });
  });

  it('destroys open plugins when the event loop ends, even with a call still inside one', () => {
    const log = logFile();
    const script = `
      const addon = require(${JSON.stringify(join(LOADER_ROOT, 'build', 'Release', 'entropic_loader.node'))});
      const open = (config, ms) => {
        const p = new addon.NativePlugin(${JSON.stringify(TIMING)}, () => {});
        p.submit(['C1', config, 'E2', 'sleep', JSON.stringify({ ms }), ''].join('\\0'));
        return p;
      };
      open(JSON.stringify({ log: ${JSON.stringify(log)} }), 20);
      open('{}', 60000);
      setTimeout(() => {}, 300);
    `;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect([child.status, child.signal]).toEqual([0, null]);
    // The idle instance was destroyed by the cleanup hook; the busy one held the exit only for its grace period.
    expect(readFileSync(log, 'utf8')).toBe('destroyed after 1 sleeps\n');
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('destroys open plugins on process.exit()', () => {
    const log = logFile();
    const loader = join(LOADER_ROOT, 'dist', 'load.js');
    const script = `
      const { loadPlugin } = await import(${JSON.stringify(loader)});
      const plugin = await loadPlugin(${JSON.stringify(TIMING)}, { isolation: 'none', config: { log: ${JSON.stringify(log)} } });
      await plugin.execute('sleep', { ms: 10 });
      await plugin.execute('sleep', { ms: 10 });
      process.exit(3);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect([child.status, child.signal]).toEqual([3, null]);
    expect(readFileSync(log, 'utf8')).toBe('destroyed after 2 sleeps\n');
  });

  it('keeps the process alive while a plugin loads, then lets it end once idle', () => {
    const loader = join(LOADER_ROOT, 'dist', 'load.js');
    // Nothing else holds the event loop: the load itself must, until its answer came.
    const script = `
      const { loadPlugin } = await import(${JSON.stringify(loader)});
      loadPlugin(${JSON.stringify(TIMING)}, { isolation: 'none' }).then((p) => console.log('loaded', p.name));
    `;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stdout.trim()).toBe('loaded timing');
    expect([child.status, child.signal]).toEqual([0, null]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
