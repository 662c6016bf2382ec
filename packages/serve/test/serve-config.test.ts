// `entropic-mcp serve --config FILE`: engine-style YAML, paths relative to the file, per-plugin options.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFixture, connectStdio, runServe, tempDir, textOf } from './support/serve-helpers.js';

describe('serve --config', () => {
  it('loads plugins listed under mcp: plugins: relative to the file, with their configure JSON and working_dir', async () => {
    const dir = tempDir('config');
    mkdirSync(join(dir, 'plugins'));
    mkdirSync(join(dir, 'project'));
    buildFixture(join(dir, 'plugins'), 'alpha');
    buildFixture(join(dir, 'plugins'), 'beta');
    writeFileSync(
      join(dir, 'entropic.yaml'),
      [
        '# an engine config: only mcp.plugins, mcp.working_dir and mcp.server_timeout_seconds matter to serve',
        'log_level: WARN',
        'models: { default: lead }',
        'mcp:',
        '  enable_git: true',
        '  working_dir: project',
        '  server_timeout_seconds: 20',
        '  plugins:',
        '    - plugins/libalpha.so',
        '    - path: ./plugins/libbeta.so',
        '      config: { greeting: hi, limits: [1, 2] }',
        '      isolation: process',
        '      timeout_ms: 5000',
        '      memory_limit_mb: 512',
      ].join('\n'),
    );
    // Started from another directory: the paths must resolve against the config file, not the cwd.
    const server = await connectStdio(['--config', join(dir, 'entropic.yaml')], tempDir('elsewhere'));
    try {
      const { tools } = await server.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain('alpha.echo');
      expect(names).toContain('beta.echo');
      const config = await server.client.callTool({ name: 'beta.config', arguments: {} });
      expect(JSON.parse(textOf(config))).toEqual({ greeting: 'hi', limits: [1, 2] });
      expect(textOf(await server.client.callTool({ name: 'alpha.cwd', arguments: {} }))).toBe(
        join(dir, 'project'),
      );
      expect(textOf(await server.client.callTool({ name: 'alpha.config', arguments: {} }))).toBe('');
    } finally {
      await server.close();
    }
  });

  it('--root overrides the config working_dir', async () => {
    const dir = tempDir('config-root');
    buildFixture(dir, 'alpha');
    writeFileSync(join(dir, 'c.yaml'), 'mcp:\n  working_dir: /nonexistent\n  plugins: [libalpha.so]\n');
    const root = tempDir('root');
    const server = await connectStdio(['--config', join(dir, 'c.yaml'), '--root', root]);
    try {
      expect(textOf(await server.client.callTool({ name: 'alpha.cwd', arguments: {} }))).toBe(root);
    } finally {
      await server.close();
    }
  });

  it('refuses a bad config with the file and the key in the message', async () => {
    const dir = tempDir('config-bad');
    writeFileSync(join(dir, 'bad.yaml'), 'mcp:\n  plugins:\n    - { path: x.so, isolation: thread }\n');
    const result = await runServe(['--config', join(dir, 'bad.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(dir, 'bad.yaml'));
    expect(result.stderr).toContain('mcp.plugins[0].isolation must be "process" or "none"');
  });

  it('a configured plugin path that does not exist stops start-up, naming it', async () => {
    const dir = tempDir('config-missing');
    writeFileSync(join(dir, 'c.yaml'), 'mcp:\n  plugins: [lib/libgone.so]\n');
    const result = await runServe(['--config', join(dir, 'c.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(dir, 'lib/libgone.so'));
  });

  it('refuses a working directory that does not exist', async () => {
    const dir = tempDir('config-noroot');
    buildFixture(dir, 'alpha');
    writeFileSync(join(dir, 'c.yaml'), 'mcp:\n  working_dir: missing\n  plugins: [libalpha.so]\n');
    const result = await runServe(['--config', join(dir, 'c.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `the working directory ${join(dir, 'missing')} (--root or mcp.working_dir) is not a directory`,
    );
  });
});
