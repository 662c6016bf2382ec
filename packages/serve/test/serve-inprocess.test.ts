// `entropic-mcp serve --isolation none`: the same bridge with plugins loaded into the server process.
// (A crash or hang in-process would take the server with it; that is what the default isolation is for.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, connectStdio, type StdioServer, tempDir, textOf } from './support/serve-helpers.js';

let root: string;
let server: StdioServer;

beforeAll(async () => {
  root = tempDir('inproc-root');
  server = await connectStdio([
    '--plugin',
    buildFixture(tempDir('inproc')),
    '--root',
    root,
    '--isolation',
    'none',
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe('serve --isolation none', () => {
  it('reports the in-process mode at start-up and lists the tools', async () => {
    expect(server.stderr()).toContain('in-process');
    expect(server.stderr()).toContain('warning: fx run(s) in-process while MCP travels over stdin/stdout');
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toContain('fx.echo');
  });

  it('calls tools, passes directives and the working directory', async () => {
    expect(textOf(await server.client.callTool({ name: 'fx.echo', arguments: { text: 'in process' } }))).toBe(
      'in process',
    );
    const stop = await server.client.callTool({ name: 'fx.stop', arguments: {} });
    expect(stop._meta?.['io.entropic/directives']).toEqual([
      { type: 'delegate' },
      { type: 'stop_processing' },
    ]);
    expect(textOf(await server.client.callTool({ name: 'fx.cwd', arguments: {} }))).toBe(root);
  });

  it('answers a malformed plugin answer with an isError result naming the plugin', async () => {
    const bad = await server.client.callTool({ name: 'fx.garbage', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('plugin "fx"');
    expect(textOf(await server.client.callTool({ name: 'fx.echo', arguments: { text: 'after' } }))).toBe(
      'after',
    );
  });
});
