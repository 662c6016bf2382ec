// Plugin faults through `entropic-mcp serve --instances 2` over stdio, with the official SDK client: each fault
// of the matrix gives a clear isError result (or the right answer), other calls in flight complete, and the
// faulty plugin serves again; a crash in one instance never fails a call running on the other. The client must
// never see a line that is not JSON-RPC. (faults-http.test.ts runs the same matrix with one instance.)
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaulty, CALL_TIMEOUT_MS, FAULTS, runFault } from './support/faults-cases.js';
import { hostsSleeping } from './support/plugin-hosts.js';
import { connectStdio, type StdioServer, tempDir, textOf } from './support/serve-helpers.js';

let server: StdioServer;
let dir: string;
const clientErrors: Error[] = [];

beforeAll(async () => {
  dir = tempDir('faults');
  const faulty = buildFaulty(dir, 'faulty');
  const calm = buildFaulty(dir, 'calm');
  const limit = ['--timeout', String(CALL_TIMEOUT_MS), '--instances', '2'];
  server = await connectStdio(['--plugin', faulty, '--plugin', calm, ...limit]);
  server.client.onerror = (error) => clientErrors.push(error);
});
afterAll(async () => {
  await server?.close();
});

describe('plugin faults over stdio', () => {
  it.each(FAULTS.map((row) => [row.tool, row] as const))('%s', async (_tool, row) => {
    await runFault(server.client, row, dir, server.pid);
    expect(clientErrors).toEqual([]);
  });

  it('spreads calls over both instances: two calls in flight run in two host processes', async () => {
    const pids = await Promise.all(
      [0, 1].map((i) => server.client.callTool({ name: 'faulty.pid', arguments: { ms: 300, i } })),
    );
    const [a, b] = pids.map(textOf);
    expect(a).toMatch(/^\d+$/);
    expect(b).toMatch(/^\d+$/);
    expect(a).not.toBe(b);
  });

  it.each([
    ['segfault', /\[ENTROPIC_PLUGIN_CRASHED, SIGSEGV\]/],
    ['abort', /\[ENTROPIC_PLUGIN_CRASHED, SIGABRT\]/],
    ['hang', /\[ENTROPIC_ERROR_TIMEOUT\]/],
  ])('a %s in one instance never fails the call running on the other', async (tool, error) => {
    const running = server.client.callTool({ name: 'faulty.slow', arguments: { ms: 800 } });
    await waitFor(() => hostsSleeping(server.pid) >= 1, 20_000, 'the slow call inside its instance');
    const failed = await server.client.callTool({ name: `faulty.${tool}`, arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(error);
    const survived = await running;
    expect(survived.isError).toBeFalsy();
    expect(textOf(survived)).toBe('slow done');
  });

  it('the server process outlived every fault and still lists both plugins', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.filter((t) => t.name.startsWith('faulty.')).length).toBe(13);
    expect(tools.filter((t) => t.name.startsWith('calm.')).length).toBe(13);
  });
});
