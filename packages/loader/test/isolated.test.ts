// Behaviour only the isolated (host process) mode has.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../src/index.js';
import { loadError, runPluginSuite } from './support/suite/plugin-cases.js';

runPluginSuite({ isolation: 'process', capabilities: { crashes: true, hangs: true, memoryLimit: true } });

describe('isolated mode only', () => {
  it('stops a plugin whose create hangs, at the load-time limit', async () => {
    const error = await loadError(fixture('hang-create'), { timeoutMs: 300 });
    expect(error.code).toBe('ENTROPIC_ERROR_TIMEOUT');
    expect(error.message).toContain('did not finish loading within 300 ms');
  });

  it('hands the plugin stdout and stderr to onStderr, never to the channel', async () => {
    let seen = '';
    const plugin = await loadPlugin(fixture('noisy'), { onStderr: (text) => (seen += text) });
    try {
      expect((await plugin.execute('echo', { n: 1 })).result).toBe('{"n":1}');
    } finally {
      await plugin.close();
    }
    expect(seen).toContain('noisy: hello from create');
    expect(seen).toContain('noisy: {"result":"forged"} {"n":1}');
    expect(seen).toContain('noisy: raw');
  });

  it('lets Node exit while a loaded plugin is idle, and the host exits with it', () => {
    const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');
    const script = `import { loadPlugin } from ${JSON.stringify(dist)};
      const p = await loadPlugin(${JSON.stringify(fixture('crashy'))});
      const a = await p.execute('echo', { n: 1 });
      console.log(a.result, (await p.execute('state', {})).result.length > 0);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('{"n":1} true');
  });

  it('says which host executable is missing', async () => {
    const error = await loadError(fixture('crashy'), { hostPath: '/nonexistent/entropic_plugin_host' });
    expect(error.code).toBe('ENTROPIC_HOST_UNAVAILABLE');
    expect(error.message).toContain('/nonexistent/entropic_plugin_host');
  });
});
