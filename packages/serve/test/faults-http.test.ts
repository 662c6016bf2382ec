// Plugin faults through `entropic-mcp serve --http`, with the official SDK client over Streamable
// HTTP: the same matrix as over stdio, and the server process stays up throughout.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaulty, CALL_TIMEOUT_MS, FAULTS, runFault } from './support/faults-cases.js';
import { connectHttp, type HttpServer, startHttp, tempDir } from './support/serve-helpers.js';

let server: HttpServer;
let client: Client;
let dir: string;

beforeAll(async () => {
  dir = tempDir('faults-http');
  const faulty = buildFaulty(dir, 'faulty');
  const calm = buildFaulty(dir, 'calm');
  server = await startHttp(['--plugin', faulty, '--plugin', calm, '--timeout', String(CALL_TIMEOUT_MS)]);
  client = await connectHttp(server.url);
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('plugin faults over Streamable HTTP', () => {
  it.each(FAULTS.map((row) => [row.tool, row] as const))('%s', async (_tool, row) => {
    await runFault(client, row, dir, server.child.pid as number);
    expect(server.child.exitCode).toBeNull();
  });

  it('a second client connected after the faults is served', async () => {
    const other = await connectHttp(server.url);
    const { tools } = await other.listTools();
    expect(tools.length).toBe(26);
    await other.close();
  });
});
