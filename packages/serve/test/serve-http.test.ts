// `entropic-mcp serve --http` with the official SDK client over Streamable HTTP: fixtures and the examples.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPlugin } from '@entropic-mcp/loader';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  buildFixture,
  childPids,
  connectHttp,
  examplePlugins,
  type HttpServer,
  startHttp,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

const examples = examplePlugins();
let server: HttpServer;
let clients: Client[] = [];
/** `<plugin>.<tool>` for every tool of every example plugin, read by loading each one directly. */
const exampleTools: string[] = [];

beforeAll(async () => {
  for (const path of examples) {
    const plugin = await loadPlugin(path);
    exampleTools.push(...plugin.tools.map((t) => `${plugin.name}.${t.name}`));
    await plugin.close();
  }
  const fx = buildFixture(tempDir('fx'));
  server = await startHttp([...examples.flatMap((p) => ['--plugin', p]), '--plugin', fx]);
  clients = [await connectHttp(server.url), await connectHttp(server.url)];
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await server?.stop();
});

describe('serve over Streamable HTTP', () => {
  it('binds 127.0.0.1 and prints the URL and a client config on stderr', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.stderr()).toContain(`"url": "${server.url}"`);
    expect(server.stderr()).toContain('npx -y @modelcontextprotocol/inspector');
  });

  it('serves the bundled example plugins as <plugin>.<tool>', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const { tools } = await clients[0]!.listTools();
    const names = tools.map((t) => t.name);
    expect(exampleTools.length).toBeGreaterThan(0);
    for (const name of exampleTools) expect(names).toContain(name);
    expect(names).toContain('fx.echo');
  });

  it('calls tools and returns directives in _meta', async () => {
    const echo = await clients[0]!.callTool({ name: 'fx.echo', arguments: { text: 'over http' } });
    expect(textOf(echo)).toBe('over http');
    const stop = await clients[1]!.callTool({ name: 'fx.stop', arguments: {} });
    expect(stop._meta?.['io.entropic/directives']).toEqual([
      { type: 'delegate' },
      { type: 'stop_processing' },
    ]);
  });

  it('a crash caused by one client leaves the other client and the other plugins serving', async () => {
    const crash = await clients[0]!.callTool({ name: 'fx.crash', arguments: {} });
    expect(crash.isError).toBe(true);
    expect(textOf(crash)).toContain('plugin "fx"');
    const other = await clients[1]!.callTool({ name: 'fx.echo', arguments: { text: 'unaffected' } });
    expect(textOf(other)).toBe('unaffected');
    const listed = await clients[1]!.listTools();
    expect(listed.tools.length).toBe(exampleTools.length + 8);
  });

  it('shuts down cleanly on SIGTERM, closing the plugins', async () => {
    const own = await startHttp(['--plugin', buildFixture(tempDir('fx2'))]);
    const client = await connectHttp(own.url);
    expect(textOf(await client.callTool({ name: 'fx.echo', arguments: { text: 'x' } }))).toBe('x');
    const hosts = childPids(own.child.pid!);
    expect(hosts.length).toBe(1); // the fixture's host process
    await client.close();
    expect(await own.stop()).toBe(0);
    expect(own.stderr()).toMatch(/SIGTERM: draining for up to 10000 ms .*, then closing plugins/);
    await waitFor(() => hosts.every((pid) => !alive(pid)), 10_000, 'plugin hosts to exit');
  });

  it('carries a cancellation over HTTP to the plugin host, which is killed; the next call works', async () => {
    const root = tempDir('http-cancel');
    const own = await startHttp(['--plugin', buildFixture(tempDir('fx3')), '--root', root]);
    const client = await connectHttp(own.url);
    try {
      const pidFile = join(root, 'hang.pid');
      const controller = new AbortController();
      const call = client.callTool({ name: 'fx.hang', arguments: {} }, undefined, {
        signal: controller.signal,
      });
      const settled = call.then(
        () => 'resolved',
        () => 'rejected',
      );
      await waitFor(
        () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0,
        20_000,
        'hang.pid',
      );
      const pid = Number(readFileSync(pidFile, 'utf8'));
      controller.abort();
      expect(await settled).toBe('rejected');
      await waitFor(() => !alive(pid), 20_000, `host process ${pid} to be killed`);
      expect(textOf(await client.callTool({ name: 'fx.echo', arguments: { text: 'again' } }))).toBe('again');
    } finally {
      await client.close();
      await own.stop();
    }
  });
});
