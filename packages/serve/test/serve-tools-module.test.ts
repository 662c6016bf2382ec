// `serve --tools-module`: JavaScript tools registered beside the C plugins on the same endpoint.
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  buildFixture,
  connectStdio,
  runServe,
  SERVE_ROOT,
  tempDir,
  textOf,
  waitFor,
} from './support/serve-helpers.js';

const MODULES = join(SERVE_ROOT, 'test', 'fixtures', 'tools-modules');

describe('serve --tools-module', () => {
  it('serves the module tools beside the plugin tools, and their list changes reach the client', async () => {
    const dir = tempDir('tools-module');
    const server = await connectStdio([
      '--plugin',
      buildFixture(dir),
      '--tools-module',
      join(MODULES, 'extra.mjs'),
      '--root',
      dir,
    ]);
    try {
      expect(server.stderr()).toContain(`tools module  ${join(MODULES, 'extra.mjs')}`);
      let changes = 0;
      server.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      });
      const names = (await server.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['fx.echo', 'ts.add', 'ts.root', 'ts.grow']));
      expect(names).not.toContain('ts.grown');
      expect(textOf(await server.client.callTool({ name: 'ts.add', arguments: { a: 2, b: 40 } }))).toBe('42');
      expect(textOf(await server.client.callTool({ name: 'ts.root', arguments: {} }))).toBe(dir);
      const bad = await server.client.callTool({ name: 'ts.add', arguments: { a: 'two' } });
      expect(bad.isError).toBe(true);
      expect(textOf(await server.client.callTool({ name: 'fx.echo', arguments: { text: 'hi' } }))).toContain(
        'hi',
      );
      await server.client.callTool({ name: 'ts.grow', arguments: {} });
      await waitFor(() => changes > 0, 20_000, 'tools/list_changed');
      expect((await server.client.listTools()).tools.map((t) => t.name)).toContain('ts.grown');
    } finally {
      await server.close();
    }
  });

  it('serves a tools module alone, with no plugin', async () => {
    const server = await connectStdio(['--tools-module', join(MODULES, 'extra.mjs')]);
    try {
      expect((await server.client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'ts.add',
        'ts.grow',
        'ts.root',
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses a module without register() and a register() that throws, naming the file', async () => {
    const missing = await runServe(['--tools-module', join(MODULES, 'no-register.mjs')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no-register.mjs');
    expect(missing.stderr).toContain('must export a function `register(server, context)`');
    const throws = await runServe(['--tools-module', join(MODULES, 'throws.mjs')]);
    expect(throws.code).toBe(1);
    expect(throws.stderr).toContain('throws.mjs: register() failed: the database is not reachable');
    const absent = await runServe(['--tools-module', join(MODULES, 'absent.mjs')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('absent.mjs: cannot import the tools module');
  });
});
