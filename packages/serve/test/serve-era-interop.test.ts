// `entropic-mcp serve` with the example C plugins and a `--tools-module` (the era tools) runs the
// official v2 client's era interop cases over stdio and Streamable HTTP, and the v1 client still works.
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEraInterop } from '../../server/test/support/era-interop.mjs';
import {
  CLI,
  connectHttp,
  examplePlugins,
  type HttpServer,
  REPO_ROOT,
  SERVE_ROOT,
  startHttp,
  textOf,
} from './support/serve-helpers.js';

const TOOLS = join(REPO_ROOT, 'packages', 'server', 'test', 'fixtures', 'era', 'tools.mjs');
const args = () => [...examplePlugins().flatMap((p) => ['--plugin', p]), '--tools-module', TOOLS];
const call = { name: 'echo.echo', arguments: { text: 'from C' }, text: 'from C' };
let http: HttpServer;

beforeAll(async () => {
  http = await startHttp(args());
});

afterAll(async () => {
  await http?.stop();
});

runEraInterop({
  name: 'serve over stdio',
  call,
  transport: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', ...args()],
      cwd: SERVE_ROOT,
    }),
});

runEraInterop({
  name: 'serve over Streamable HTTP',
  call,
  transport: () => new StreamableHTTPClientTransport(new URL(http.url)),
});

describe('serve with a tools module: the v1 client (@modelcontextprotocol/sdk 1.32.2)', () => {
  it('lists the plugin and module tools together and calls both', async () => {
    const client = await connectHttp(http.url);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo.echo', 'era_echo', 'era_ask']));
      expect(textOf(await client.callTool({ name: 'echo.echo', arguments: { text: 'v1 C' } }))).toBe('v1 C');
      expect(textOf(await client.callTool({ name: 'era_echo', arguments: { text: 'v1 TS' } }))).toBe('v1 TS');
    } finally {
      await client.close();
    }
  });
});
