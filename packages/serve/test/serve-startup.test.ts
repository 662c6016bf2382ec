// Start-up of `entropic-mcp serve`: refusals are loud, --keep-going continues.
import { type AddressInfo, createServer } from 'node:net';
// Start-up of `entropic-mcp serve`: refusals are loud (which plugin, why), --keep-going continues.
import { describe, expect, it } from 'vitest';
import {
  buildFixture,
  connectHttp,
  notAPlugin,
  runServe,
  startHttp,
  tempDir,
} from './support/serve-helpers.js';

describe('serve start-up', () => {
  it('stops when a configured plugin fails to load, naming the plugin and the reason', async () => {
    const dir = tempDir('start');
    const broken = notAPlugin(dir);
    const result = await runServe(['--plugin', buildFixture(dir), '--plugin', broken]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(broken);
    expect(result.stderr).toContain('ENTROPIC_ERROR_PLUGIN_LOAD_FAILED');
    expect(result.stderr).toContain('--keep-going');
    expect(result.stdout).toBe('');
  });

  it('with --keep-going serves the plugins that loaded and reports the one that did not', async () => {
    const dir = tempDir('keep');
    const broken = notAPlugin(dir);
    const server = await startHttp(['--plugin', broken, '--plugin', buildFixture(dir), '--keep-going']);
    try {
      expect(server.stderr()).toMatch(/FAILED.*libbroken\.so/);
      const client = await connectHttp(server.url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('fx.echo');
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('refuses two plugins with the same name, loudly', async () => {
    const dir = tempDir('clash');
    const a = buildFixture(dir, 'fx', 'liba.so');
    const b = buildFixture(dir, 'fx', 'libb.so');
    const result = await runServe(['--plugin', a, '--plugin', b]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plugin name "fx" is used by both');
    expect(result.stderr).toContain(a);
    expect(result.stderr).toContain(b);
  });

  it('says what to do when given nothing to serve, and rejects bad options', async () => {
    const none = await runServe([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to serve');
    const bad = await runServe(['--isolation', 'thread']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--isolation expects process or none');
  });

  it('reports a busy HTTP port and exits, closing the plugins it had loaded', async () => {
    const blocker = createServer();
    await new Promise<void>((ready) => blocker.listen(0, '127.0.0.1', ready));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const result = await runServe([
        '--plugin',
        buildFixture(tempDir('busy')),
        '--http',
        `127.0.0.1:${port}`,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });

  it('stops on a plugin tool the server cannot register (a bad inputSchema), unless --keep-going', async () => {
    const dir = tempDir('bad-schema');
    const bad = buildFixture(dir, 'bad', 'libbad.so', ['BAD_SCHEMA']);
    const good = buildFixture(dir, 'good');
    const refused = await runServe(['--plugin', good, '--plugin', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot register tool "bad.broken" of plugin "bad"');
    const server = await startHttp(['--plugin', good, '--plugin', bad, '--keep-going']);
    try {
      expect(server.stderr()).toMatch(/FAILED.*libbad\.so: ENTROPIC_MCP_TOOL_REJECTED/);
      const client = await connectHttp(server.url);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('good.echo');
      expect(names.filter((n) => n.startsWith('bad.'))).toEqual([]);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
