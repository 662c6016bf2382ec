// Property-based fuzzing of the stdio transport against a real child process (test/fixtures/fuzz/server.mjs):
// frames split at random points, CRLF and blank lines, truncated frames, invalid UTF-8, deep and wide
// JSON, huge strings and numbers, wrong types, batches, duplicate ids, oversized frames, random bytes.
// The child must never exit, never write a line that is not JSON, answer each valid request exactly
// once with the right code, and answer ping afterwards. FUZZ_RUNS=N sets the cases per property.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildCases,
  frameBytes,
  framing,
  garbage,
  oracleCase,
  runs,
  timeLimit,
} from './support/fuzz-cases.js';
import { idSource, Ledger } from './support/fuzz-ledger.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fuzz', 'server.mjs');
const MAX_FRAME = 1024 * 1024;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  ledger: Ledger;
  exited: () => string | undefined;
  write(bytes: Buffer): Promise<void>;
}

const children: Child[] = [];
afterAll(() => {
  for (const c of children) c.proc.kill();
});

async function spawnServer(protocolVersion: string): Promise<Child> {
  const proc = spawn(process.execPath, [SERVER], {
    env: { ...process.env, FUZZ_MAX_FRAME: String(MAX_FRAME) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ledger = new Ledger();
  let exit: string | undefined;
  proc.once('exit', (code, signal) => {
    exit = `server exited (code ${code}, signal ${signal})`;
  });
  proc.stderr.resume();
  let rest = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        ledger.violations.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      ledger.add(message);
    }
  });
  const write = (bytes: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (exit !== undefined) return reject(new Error(exit));
      proc.stdin.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  const child = { proc, ledger, exited: () => exit, write };
  children.push(child);
  const init = { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } };
  await write(
    Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'probe-init', method: 'initialize', params: init })}\n`,
    ),
  );
  await ledger.until(() => ledger.answered('probe-init'), 30_000, 'initialize');
  await write(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
  return child;
}

async function probe(child: Child, id: string): Promise<void> {
  await child.write(Buffer.from(`\n{"jsonrpc":"2.0","id":"${id}","method":"ping"}\n`));
  await child.ledger.until(() => child.ledger.answered(id), 20_000, `ping ${id}`);
}

async function send(child: Child, chunks: Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    await child.write(chunk);
    await new Promise((r) => setImmediate(r));
  }
}

describe.each(['2025-11-25', '2025-03-26'])('stdio fuzz against a child process, protocol %s', (version) => {
  const batches = version === '2025-03-26';

  it('answers each valid request once with the right code, whatever the framing; ping after', {
    timeout: timeLimit(90_000),
  }, async () => {
    const child = await spawnServer(version);
    const id = idSource(`stdio-${version}`);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(oracleCase, { minLength: 1, maxLength: 5 }),
        framing,
        async (builds, layout) => {
          const c = buildCases(builds, id, { batches, maxFrameBytes: MAX_FRAME });
          const keys = child.ledger.owe(c);
          await send(child, frameBytes(c.frames, layout));
          await probe(child, `probe-${++n}`);
          await child.ledger.until(() => child.ledger.allOwedArrived(), 20_000, 'owed answers');
          expect(child.exited()).toBeUndefined();
          expect(child.ledger.problems(keys)).toEqual([]);
        },
      ),
      { numRuns: runs(150) },
    );
    await probe(child, 'probe-final');
    await quietPeriod(300); // an answer owed to no one would show up here
    expect(child.ledger.problems()).toEqual([]);
    expect(child.exited()).toBeUndefined();
  });

  it('survives random bytes: never exits, only JSON lines on stdout, ping still answered', {
    timeout: timeLimit(90_000),
  }, async () => {
    const child = await spawnServer(version);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { maxLength: 4 }), framing, async (frames, layout) => {
        await send(child, frameBytes(frames, layout));
        await probe(child, `probe-${++n}`);
        expect(child.exited()).toBeUndefined();
        expect(child.ledger.violations).toEqual([]);
      }),
      { numRuns: runs(150) },
    );
  });
});

describe('stdio frame cap at its default', () => {
  it('a 17 MiB line is answered -32600 and skipped; the next request is served', {
    timeout: timeLimit(90_000),
  }, async () => {
    const proc = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stderr.resume();
    children.push({ proc, ledger: new Ledger(), exited: () => undefined, write: async () => {} });
    let out = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (c: string) => {
      out += c;
    });
    const big = Buffer.alloc(17 * 1024 * 1024, 0x61);
    proc.stdin.write(big);
    proc.stdin.write('\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await waitFor(() => out.includes('"id":1'), 60_000, 'the ping after the oversized line');
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(String((lines[0]?.error as { message?: string } | undefined)?.message)).toMatch(
      /exceeds the 16777216-byte limit/,
    );
    expect(lines[1]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('stdio reader that does not read', () => {
  it('stops reading input while its output is blocked, then answers everything', {
    timeout: 120_000,
  }, async () => {
    const proc = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push({ proc, ledger: new Ledger(), exited: () => undefined, write: async () => {} });
    proc.stderr.resume();
    proc.stdout.pause();
    const rssMiB = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1]) / 1024;
    const init = {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'slow', version: '1' },
    };
    proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init })}\n`);
    const text = 'x'.repeat(5000);
    const calls = 20_000;
    for (let i = 1; i <= calls; i++) {
      const call = {
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text } },
      };
      proc.stdin.write(`${JSON.stringify(call)}\n`);
    }
    // The server has had its chance to read everything it was offered: it must not have.
    await quietPeriod(4000);
    // 100 MB of requests were offered; without backpressure the answers would sit in the server's memory.
    expect(proc.stdin.writableLength).toBeGreaterThan(50 * 1024 * 1024);
    expect(rssMiB()).toBeLessThan(140);
    let answered = 0;
    let rest = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      answered += lines.length;
    });
    proc.stdout.resume();
    await waitFor(() => answered >= calls + 1, 100_000, 'every call to be answered');
    expect(answered).toBe(calls + 1);
  });
});
