// scripts/serve-examples.mjs (what `npm start` runs after install and build): the bundled examples over
// Streamable HTTP on 127.0.0.1 with a port fallback, or over stdio, each in the sandbox examples/plugins/serve.yaml
// gives it (the files plugin reads its own folder and nothing else).
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { loadPlugin } from '@entropic-mcp/loader';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, examplePlugins, REPO_ROOT, textOf } from './support/serve-helpers.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'serve-examples.mjs');
const expected: string[] = [];
let blocker: Server;
let busyPort: number;

beforeAll(async () => {
  for (const path of examplePlugins()) {
    const plugin = await loadPlugin(path);
    expected.push(...plugin.tools.map((t) => `${plugin.name}.${t.name}`));
    await plugin.close();
  }
  blocker = createServer();
  await new Promise<void>((ready) => blocker.listen(0, '127.0.0.1', ready));
  busyPort = (blocker.address() as { port: number }).port;
});
afterAll(() => {
  blocker?.close();
});

describe('scripts/serve-examples.mjs', () => {
  it('serves every example tool over HTTP, moving off a busy port, and prints how to connect', async () => {
    expect(expected.length).toBeGreaterThan(0);
    const child = spawn(process.execPath, [SCRIPT, '--port', String(busyPort)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      const url = await new Promise<string>((ready, fail) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(stderr);
          if (match) ready(match[1]!);
        });
        exited.then((code) => fail(new Error(`exited with ${code}:\n${stderr}`)));
      });
      expect(stderr).toContain(`port ${busyPort} on 127.0.0.1 is busy`);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(url).not.toContain(`:${busyPort}/`);
      expect(stderr).toContain('"mcpServers"');
      expect(stderr).toContain(
        `npx -y @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`,
      );
      const files = join(REPO_ROOT, 'examples', 'plugins', 'files');
      expect(stderr).toContain(`working directory ${files}`);
      expect(stderr).toContain(
        `sandbox: read ${files}; write none; connect none; no exec; no new processes;`,
      );
      expect(stderr.match(/\n +sandbox: /g)).toHaveLength(examplePlugins().length);
      expect(stderr).not.toContain('not enforced');
      const client = await connectHttp(url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
      const listed = await client.callTool({ name: 'files.list', arguments: {} });
      expect(textOf(listed)).toContain('files.c');
      await client.close();
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });

  it('--stdio serves the same tools to a client that starts it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SCRIPT, '--stdio'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'serve-examples-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    } finally {
      await client.close();
    }
  });
});
