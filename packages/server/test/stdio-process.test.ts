/** examples/echo-stdio.mjs as a real child process: answers, then exits 0 when stdin ends. */

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'echo-stdio.mjs');

describe('stdio server process', () => {
  it('answers what it was sent, skips an over-long line, and exits 0 once stdin ends', async () => {
    const child = spawn(process.execPath, [serverPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {} },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'bye' } } },
    ].map((m) => JSON.stringify(m));
    child.stdin.write(`${lines.join('\r\n')}\r\n`);
    // 17 MiB without a newline, then one: over the 16 MiB cap.
    child.stdin.write(Buffer.alloc(17 * 1024 * 1024, 0x61));
    child.stdin.write('\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    child.stdin.end();
    expect(await exited).toBe(0);
    const answers = out
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number; message: string } },
      );
    expect(answers.find((a) => a.id === 2)?.result).toEqual({ content: [{ type: 'text', text: 'bye' }] });
    expect(answers.find((a) => a.id === 3)?.result).toEqual({});
    const skipped = answers.find((a) => a.id === null);
    expect(skipped?.error?.code).toBe(-32600);
    expect(skipped?.error?.message).toMatch(/exceeds the 16777216-byte limit/);
  });
});
