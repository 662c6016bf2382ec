// Plugin faults through `entropic-mcp serve` over stdio, with the official SDK client: each fault of
// the matrix gives a clear isError result (or the right answer), other calls in flight complete, and
// the faulty plugin serves again. The client must never see a line that is not JSON-RPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaulty, CALL_TIMEOUT_MS, FAULTS, runFault } from './faults-cases.js';
import { connectStdio, type StdioServer, tempDir } from './serve-helpers.js';

let server: StdioServer;
let dir: string;
const clientErrors: Error[] = [];

beforeAll(async () => {
  dir = tempDir('faults');
  const faulty = buildFaulty(dir, 'faulty');
  const calm = buildFaulty(dir, 'calm');
  server = await connectStdio(['--plugin', faulty, '--plugin', calm, '--timeout', String(CALL_TIMEOUT_MS)]);
  server.client.onerror = (error) => clientErrors.push(error);
});
afterAll(async () => {
  await server?.close();
});

describe('plugin faults over stdio', () => {
  it.each(FAULTS.map((row) => [row.tool, row] as const))('%s', async (_tool, row) => {
    await runFault(server.client, row, dir);
    expect(clientErrors).toEqual([]);
  });

  it('the server process outlived every fault and still lists both plugins', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.filter((t) => t.name.startsWith('faulty.')).length).toBe(11);
    expect(tools.filter((t) => t.name.startsWith('calm.')).length).toBe(11);
  });
});
