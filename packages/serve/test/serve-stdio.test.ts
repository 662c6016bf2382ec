// `entropic-mcp serve` over stdio with the official SDK client, plugins isolated in host processes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  buildFixture,
  CLI,
  childPids,
  connectStdio,
  type StdioServer,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

const DIRECTIVES = 'io.entropic/directives';

let fx: string;
let root: string;
let server: StdioServer;

beforeAll(async () => {
  fx = buildFixture(tempDir('fx'));
  root = tempDir('root');
  server = await connectStdio(['--plugin', fx, '--root', root]);
});
afterAll(async () => {
  await server?.close();
});

describe('serve over stdio', () => {
  it('lists every plugin tool as <plugin>.<tool> with its description and inputSchema', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      ['calls', 'config', 'crash', 'cwd', 'echo', 'garbage', 'hang', 'stop'].map((t) => `fx.${t}`),
    );
    const echo = tools.find((t) => t.name === 'fx.echo')!;
    expect(echo.description).toBe('Echoes text.');
    expect(echo.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('turns the answer envelope into text content, with the directives in _meta', async () => {
    const echo = await server.client.callTool({ name: 'fx.echo', arguments: { text: 'hello there' } });
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toBe('hello there');
    expect(echo._meta?.[DIRECTIVES]).toEqual([]);

    const stop = await server.client.callTool({ name: 'fx.stop', arguments: {} });
    expect(stop._meta?.[DIRECTIVES]).toEqual([{ type: 'delegate' }, { type: 'stop_processing' }]);
    expect(JSON.parse(textOf(stop))).toEqual({
      action: 'delegate',
      target: 'eng',
      task: 'review',
      max_turns: 3,
    });
  });

  it('hands --root to the plugin through set_working_dir', async () => {
    expect(textOf(await server.client.callTool({ name: 'fx.cwd', arguments: {} }))).toBe(root);
  });

  it('refuses invalid arguments before the plugin runs', async () => {
    const before = Number(textOf(await server.client.callTool({ name: 'fx.calls', arguments: {} })));
    let refused: boolean;
    try {
      const result = await server.client.callTool({ name: 'fx.echo', arguments: { text: 42 } });
      refused = result.isError === true;
    } catch {
      refused = true;
    }
    expect(refused).toBe(true);
    const after = Number(textOf(await server.client.callTool({ name: 'fx.calls', arguments: {} })));
    expect(after).toBe(before + 1); // only the first "calls" ran in between
  });

  it('answers a crash with an isError result naming the plugin, then keeps serving', async () => {
    const crash = await server.client.callTool({ name: 'fx.crash', arguments: {} });
    expect(crash.isError).toBe(true);
    expect(textOf(crash)).toContain('plugin "fx"');
    expect(textOf(crash)).toContain('"crash"');
    expect(textOf(crash)).toMatch(/ENTROPIC_PLUGIN_CRASHED.*SIGSEGV/);
    const next = await server.client.callTool({ name: 'fx.echo', arguments: { text: 'still here' } });
    expect(next.isError).toBeFalsy();
    expect(textOf(next)).toBe('still here');
    expect(textOf(await server.client.callTool({ name: 'fx.cwd', arguments: {} }))).toBe(root);
  });

  it('answers a malformed plugin answer with an isError result naming the plugin', async () => {
    const bad = await server.client.callTool({ name: 'fx.garbage', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('plugin "fx"');
    expect(textOf(bad)).toContain('ENTROPIC_PLUGIN_BAD_ANSWER');
  });

  it('carries a client cancellation to the plugin host: the hung host is killed and the next call works', async () => {
    const pidFile = join(root, 'hang.pid');
    const controller = new AbortController();
    const call = server.client.callTool({ name: 'fx.hang', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 20_000, 'hang.pid');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    controller.abort();
    expect(await settled).toBe('rejected');
    await waitFor(() => !alive(pid), 20_000, `host process ${pid} to be killed`);
    const next = await server.client.callTool({ name: 'fx.echo', arguments: { text: 'after cancel' } });
    expect(textOf(next)).toBe('after cancel');
  });

  it('keeps stdout clean: the start-up report went to stderr', () => {
    expect(server.stderr()).toContain('fx');
    expect(server.stderr()).toContain('8 tools');
    expect(server.stderr()).toContain('"mcpServers"');
  });

  it('shuts down on SIGTERM while stdin is still open: exit 0, plugin hosts closed', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--plugin', fx], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    await waitFor(() => stderr.includes('serving MCP on stdin/stdout'), 20_000, 'the start-up report');
    const hosts = childPids(child.pid!);
    expect(hosts.length).toBe(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('SIGTERM, closing plugins');
    await waitFor(() => hosts.every((pid) => !alive(pid)), 10_000, 'plugin hosts to exit');
  });
  it('a SIGTERM while a plugin is still loading ends start-up at once: exit 143, its host gone', async () => {
    // hang-create never returns from entropic_create_server, so start-up cannot finish by itself.
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--plugin', fixture('hang-create'), '--timeout', '600000'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    await waitFor(() => childPids(child.pid!).length === 1, 20_000, 'the plugin host to start');
    const hosts = childPids(child.pid!);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toContain('SIGTERM during start-up, exiting');
    await waitFor(() => hosts.every((pid) => !alive(pid)), 10_000, 'the plugin host to exit');
  });
});
