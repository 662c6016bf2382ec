/**
 * docs/clients.md, run as written: its server block in a child process (on a free port), then each client
 * block in a child process against it. Their output says which path each call took (direct or a task).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from './support/consumer-tsc.mjs';

const GUIDE = join(SERVER_ROOT, '../../docs/clients.md');

/** The block whose fence reads ```js <name>. */
function block(name: string): string {
  const match = new RegExp(`^\`\`\`js ${name}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readFileSync(GUIDE, 'utf8'));
  if (match?.[1] === undefined) throw new Error(`docs/clients.md has no \`\`\`js ${name} block`);
  return match[1];
}

/** Runs `code` as an ES module from this package's folder (so it resolves the package and the SDK). */
function runModule(code: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: SERVER_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function runToEnd(
  code: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = runModule(code, env);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exit = await new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
  return { code: exit, out };
}

let server: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  server = runModule(block('server'), { PORT: '0' });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server?.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    server?.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    server?.on('exit', (status) => reject(new Error(`the server block exited (${status}): ${out}`)));
  });
});

afterAll(() => {
  server?.kill();
});

describe('docs/clients.md', () => {
  it('the 2025-11-25 client (official SDK) negotiates that revision, sees progress and the result', async () => {
    const run = await runToEnd(block('client-2025'), { MCP_URL: url });
    expect(run.out).toBe(
      ['protocol 2025-11-25', 'progress writing the report', 'report ready after 50 ms', ''].join('\n'),
    );
    expect(run.code).toBe(0);
  });

  it('the 2026-07-28 client (fetch) gets a quick call directly and a slow one as a task it polls', async () => {
    const run = await runToEnd(block('client-2026'), { MCP_URL: url });
    expect(run.out).toBe(
      ['report ready after 10 ms', 'task working', 'report ready after 1500 ms', ''].join('\n'),
    );
    expect(run.code).toBe(0);
  });
});
