// The per-call time limit (--timeout) ends a hung plugin call with an isError result; the host restarts.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  buildFixture,
  connectStdio,
  type StdioServer,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

let root: string;
let server: StdioServer;

beforeAll(async () => {
  const fx = buildFixture(tempDir('fx'));
  root = tempDir('root');
  server = await connectStdio(['--plugin', fx, '--root', root, '--timeout', '1500']);
});
afterAll(async () => {
  await server?.close();
});

describe('serve --timeout', () => {
  it('turns a hung call into an isError result naming the plugin, kills the host, then serves the next call', async () => {
    const pidFile = join(root, 'hang.pid');
    rmSync(pidFile, { force: true });
    const hung = await server.client.callTool({ name: 'fx.hang', arguments: {} });
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toContain('plugin "fx"');
    expect(textOf(hung)).toContain('ENTROPIC_ERROR_TIMEOUT');
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !alive(pid), 20_000, `host process ${pid} to be killed`);
    const next = await server.client.callTool({ name: 'fx.echo', arguments: { text: 'after timeout' } });
    expect(next.isError).toBeFalsy();
    expect(textOf(next)).toBe('after timeout');
  });
});
