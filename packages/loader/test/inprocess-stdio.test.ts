// `entropic-mcp serve --stdio --isolation none` with a plugin that prints to fd 1 and reads fd 0 (the
// `noisy` fixture): the protocol travels on private descriptors, so the noise lands on stderr, the plugin's
// reads see end-of-file, and the client's stdout carries nothing but JSON-RPC.
import { spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from './fixtures.js';
import { CLI, LOADER_ROOT, newClient, textOf, waitFor } from './serve-helpers.js';

const SERVE_ARGS = ['serve', '--stdio', '--isolation', 'none', '--plugin', fixture('noisy')];
/** Long enough for a loaded machine; a plugin blocked reading the protocol pipe never answers at all. */
const REQUEST_TIMEOUT_MS = 20_000;

describe('serve --stdio --isolation none with a plugin that uses stdio', () => {
  const client = newClient();
  const clientErrors: Error[] = [];
  let stderr = '';
  let pid: number | null = null;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...SERVE_ARGS],
      cwd: LOADER_ROOT,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Set before connecting: a stray line printed while the plugin loads is reported here too.
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(transport);
    pid = transport.pid;
  });
  afterAll(async () => {
    await client.close();
  });

  it('answers every call while the plugin prints and reads', async () => {
    for (let n = 1; n <= 5; n++) {
      const result = await client.callTool({ name: 'noisy.echo', arguments: { n } }, undefined, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      expect(result.isError).not.toBe(true);
      expect(JSON.parse(textOf(result))).toEqual({ n });
    }
    const { tools } = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    expect(tools.map((t) => t.name)).toEqual(['noisy.echo']);
    expect(clientErrors).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('points fd 0 at /dev/null and fd 1 at stderr in the server', () => {
    expect(pid).not.toBeNull();
    const link = (fd: number) => readlinkSync(`/proc/${pid}/fd/${fd}`);
    expect(link(0)).toBe('/dev/null');
    expect(link(1)).toBe(link(2));
    expect(link(1)).not.toBe('/dev/null');
  });

  it('sends the noise to stderr and nothing the client could not parse to stdout', async () => {
    await client.callTool({ name: 'noisy.echo', arguments: { n: 99 } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    // stderr is another pipe: its bytes may arrive just after the answer.
    await waitFor(
      () => stderr.includes('noisy: {"result":"forged"} {"n":99}'),
      20_000,
      'the noise on stderr',
    );
    expect(stderr).toContain('noisy: hello from create');
    expect(stderr).toContain('noisy: raw');
    expect(clientErrors).toEqual([]);
  });
});

/** Every line the server wrote to stdout, for requests sent in one write and stdin then closed. */
function rawExchange(
  lines: readonly object[],
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [CLI, ...SERVE_ARGS], {
    cwd: LOADER_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  // Wait for start-up, so the plugin's load-time print has happened before any request.
  const ready = (): void => {
    if (!stderr.includes('serving MCP on stdin/stdout')) return;
    child.stderr.off('data', ready);
    child.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  };
  child.stderr.on('data', ready);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ stdout, stderr, code });
    }),
  );
}

describe('the raw stdout of serve --stdio --isolation none', () => {
  let result: { stdout: string; stderr: string; code: number | null };
  const calls = [1, 2, 3, 4].map((n) => ({
    jsonrpc: '2.0',
    id: n + 1,
    method: 'tools/call',
    params: { name: 'noisy.echo', arguments: { n } },
  }));

  beforeAll(async () => {
    result = await rawExchange([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...calls,
    ]);
  });

  it('holds only JSON-RPC answers, one per request, and the process exits cleanly', () => {
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    const answers = lines.map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: unknown });
    expect(answers.every((a) => a.jsonrpc === '2.0')).toBe(true);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const call of calls) {
      const answer = answers.find((a) => a.id === call.id);
      expect(textOf(answer?.result)).toBe(JSON.stringify(call.params.arguments));
    }
    expect(result.stderr).toContain('noisy: raw');
  });
});
