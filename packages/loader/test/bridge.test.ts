// The bridge on a real McpServer (in this process), driven by the official SDK client over Streamable HTTP,
// with the fixture plugin hosted in each mode.
import { McpServer } from '@entropic-mcp/server';
import { serveHttp } from '@entropic-mcp/server/http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Isolation, Plugin, PluginDirective } from '../src/base/types.js';
import { mountPlugin, mountPlugins, ToolCollisionError } from '../src/bridge/mount.js';
import type { DirectiveSource } from '../src/bridge/types.js';
import { loadPlugin } from '../src/load.js';
import { buildFixture, connectHttp, tempDir, textOf } from './support/helpers.js';

let fx: string;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(() => {
  fx = buildFixture(tempDir('bridge'));
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function load(isolation: Isolation, name = fx): Promise<Plugin> {
  const plugin = await loadPlugin(name, { isolation, workingDir: tempDir('bridge-root') });
  cleanup.push(() => plugin.close());
  return plugin;
}

async function serve(server: McpServer) {
  const http = await serveHttp(server, { port: 0 });
  cleanup.push(() => http.close());
  const client = await connectHttp(http.url);
  cleanup.push(() => client.close());
  return client;
}

describe.each(['process', 'none'] as const)('bridge with isolation %s', (isolation) => {
  it('hands directives to the onDirectives hook with their source, and to the client in _meta', async () => {
    const seen: { directives: readonly PluginDirective[]; source: DirectiveSource }[] = [];
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    mountPlugin(server, await load(isolation), {
      onDirectives: (directives, source) => void seen.push({ directives, source }),
    });
    const client = await serve(server);

    const echo = await client.callTool({ name: 'fx.echo', arguments: { text: 'quiet' } });
    expect(textOf(echo)).toBe('quiet');
    expect(seen).toEqual([]); // no directives, no call

    const stop = await client.callTool({ name: 'fx.stop', arguments: {} });
    expect(stop._meta?.['io.entropic/directives']).toEqual([
      { type: 'delegate' },
      { type: 'stop_processing' },
    ]);
    expect(seen).toEqual([
      {
        directives: [{ type: 'delegate' }, { type: 'stop_processing' }],
        source: { plugin: 'fx', tool: 'stop', args: {} },
      },
    ]);
  });

  it('turns a failing hook into an isError result', async () => {
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    mountPlugin(server, await load(isolation), {
      onDirectives: () => {
        throw new Error('the host refused to delegate');
      },
    });
    const client = await serve(server);
    const result = await client.callTool({ name: 'fx.stop', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the host refused to delegate');
    expect(textOf(result)).toContain('plugin "fx"');
  });

  it('turns a bad plugin answer into an isError result naming the plugin, and keeps serving', async () => {
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    mountPlugin(server, await load(isolation));
    const client = await serve(server);
    const bad = await client.callTool({ name: 'fx.garbage', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/plugin "fx" failed on tool "garbage" \[ENTROPIC_PLUGIN_BAD_ANSWER\]/);
    expect(textOf(await client.callTool({ name: 'fx.echo', arguments: { text: 'ok' } }))).toBe('ok');
  });

  it('refuses a plugin tool whose name a TypeScript tool already has, registering none of its tools', async () => {
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    server.addTool({ name: 'fx.echo', description: 'the TypeScript one' }, () => ({
      content: [{ type: 'text', text: 'from TypeScript' }],
    }));
    const plugin = await load(isolation);
    expect(() => mountPlugins(server, [plugin])).toThrow(ToolCollisionError);
    expect(() => mountPlugins(server, [plugin])).toThrow(/cannot register tool "fx.echo" of plugin "fx"/);
    const client = await serve(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['fx.echo']);
    expect(textOf(await client.callTool({ name: 'fx.echo', arguments: {} }))).toBe('from TypeScript');
  });

  it('refuses two plugins with the same name before registering any tool', async () => {
    const server = new McpServer(
      { name: 'bridge-test', version: '1.0.0' },
      { capabilities: { tools: true } },
    );
    const dir = tempDir('bridge-twins');
    const first = await load(isolation, buildFixture(dir, 'fx', 'liba.so'));
    const second = await load(isolation, buildFixture(dir, 'fx', 'libb.so'));
    expect(() => mountPlugins(server, [first, second])).toThrow(
      /plugin name "fx" is used by both .*liba\.so and .*libb\.so/,
    );
    const client = await serve(server);
    expect((await client.listTools()).tools).toEqual([]);
  });

  it('registers each tool with the plugin description, schema and an io.entropic/plugin _meta', async () => {
    const server = new McpServer({ name: 'bridge-test', version: '1.0.0' });
    const names = mountPlugin(server, await load(isolation));
    expect(names).toContain('fx.echo');
    const client = await serve(server);
    const echo = (await client.listTools()).tools.find((t) => t.name === 'fx.echo');
    expect(echo?.description).toBe('Echoes text.');
    expect(echo?.inputSchema).toMatchObject({ required: ['text'] });
    expect(echo?._meta).toEqual({ 'io.entropic/plugin': { plugin: 'fx', tool: 'echo' } });
  });
});
