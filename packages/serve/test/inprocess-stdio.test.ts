// `entropic-mcp serve --stdio --isolation none` with a plugin that prints to fd 1 and reads fd 0 (the
// `noisy` fixture): the protocol travels on private descriptors, so the noise lands on stderr, the plugin's
// reads see end-of-file, and the client's stdout carries nothing but JSON-RPC.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, childPids, newClient, SERVE_ROOT, tempDir, textOf, waitFor } from './support/serve-helpers.js';

const SERVE_ARGS = ['serve', '--stdio', '--isolation', 'none', '--plugin', fixture('noisy')];
/** Long enough for a loaded machine; a plugin blocked reading the protocol pipe never answers at all. */
const REQUEST_TIMEOUT_MS = 20_000;
/** Linux's O_CLOEXEC, as /proc/PID/fdinfo prints flags (octal). */
const O_CLOEXEC = 0o2000000;

describe('serve --stdio --isolation none with a plugin that uses stdio', () => {
  const client = newClient();
  const clientErrors: Error[] = [];
  let stderr = '';
  let pid: number | null = null;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...SERVE_ARGS],
      cwd: SERVE_ROOT,
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

/** A descriptor of the server that holds the client's input pipe or its output file. */
interface ProtocolCopy {
  readonly fd: number;
  readonly of: 'input' | 'output';
  readonly closeOnExec: boolean;
}

interface Exchange {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** Linux only: where the protocol sits in the server once it is ready. */
  readonly copies: readonly ProtocolCopy[];
}

/**
 * The server's descriptors on the protocol: those naming the output file, and the one socket other than
 * stderr's (Node gives a child its stdio pipes as socket pairs, and the server opens no other socket). With the
 * relay of the plugins' stderr running, fd 2 is its pipe and the server keeps the real stderr in a copy: the
 * socket the relay writes to (its own fd 1).
 */
function protocolCopies(pid: number, outputFile: string): ProtocolCopy[] {
  const link = (fd: string, of = pid) => readlinkSync(`/proc/${of}/fd/${fd}`);
  const stderrLinks = [link('2'), ...childPids(pid).map((relay) => link('1', relay))];
  return readdirSync(`/proc/${pid}/fd`).flatMap((name) => {
    const target = link(name);
    const of =
      target === outputFile
        ? 'output'
        : target.startsWith('socket:') && !stderrLinks.includes(target)
          ? 'input'
          : null;
    if (of === null) return [];
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${name}`, 'utf8'))?.[1];
    const closeOnExec = (Number.parseInt(flags ?? '0', 8) & O_CLOEXEC) !== 0;
    return [{ fd: Number(name), of, closeOnExec } as const];
  });
}

/**
 * Requests sent in one write once the server is ready, then stdin closed. The server's stdout is a file
 * here (its private copy is written synchronously); every line it got is returned.
 */
function rawExchange(lines: readonly object[]): Promise<Exchange> {
  const outputFile = join(tempDir('inproc-stdio'), 'stdout.jsonl');
  const outputFd = openSync(outputFile, 'w');
  const child = spawn(process.execPath, [CLI, ...SERVE_ARGS], {
    cwd: SERVE_ROOT,
    stdio: ['pipe', outputFd, 'pipe'],
  }) as ChildProcessByStdio<Writable, null, Readable>;
  closeSync(outputFd);
  let stderr = '';
  let copies: ProtocolCopy[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  // Wait for start-up, so the plugin's load-time print has happened before any request.
  const ready = (): void => {
    if (!stderr.includes('serving MCP on stdin/stdout')) return;
    child.stderr.off('data', ready);
    if (process.platform === 'linux' && child.pid !== undefined) {
      copies = protocolCopies(child.pid, outputFile);
    }
    child.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  };
  child.stderr.on('data', ready);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ stdout: readFileSync(outputFile, 'utf8'), stderr, code, copies });
    }),
  );
}

describe('the raw stdout of serve --stdio --isolation none', () => {
  let result: Exchange;
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

  it.runIf(process.platform === 'linux')(
    'keeps the protocol on one private close-on-exec copy of each stream, off fds 0 and 1',
    () => {
      const sorted = [...result.copies].sort((a, b) => a.of.localeCompare(b.of));
      expect(sorted.map((c) => c.of)).toEqual(['input', 'output']);
      for (const copy of sorted) {
        expect(copy.fd).toBeGreaterThan(2);
        expect(copy.closeOnExec, `fd ${copy.fd}`).toBe(true);
      }
    },
  );
});
