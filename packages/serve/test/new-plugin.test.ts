// From nothing to a served tool in three commands:
//   entropic-mcp new-plugin hello && make -C hello && entropic-mcp serve --plugin $PWD/hello/build/libhello.so
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, textOf } from './support/serve-helpers.js';

/** The shell a plugin author has after installing: `entropic-mcp` and `entropic-abi` on PATH. */
const env = { ...process.env, PATH: `${join(REPO_ROOT, 'node_modules', '.bin')}:${process.env.PATH}` };

function sh(script: string, cwd: string): string {
  return execFileSync('sh', ['-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('entropic-mcp new-plugin', () => {
  it('scaffolds a plugin that builds and serves as generated, in three commands', async () => {
    const work = tempDir('new-plugin');
    const created = sh('entropic-mcp new-plugin hello', work);
    expect(created).toContain(join(work, 'hello'));
    for (const file of ['src/plugin.c', 'src/answers.h', 'Makefile', 'README.md', '.gitignore']) {
      expect(existsSync(join(work, 'hello', file)), file).toBe(true);
    }
    expect(readFileSync(join(work, 'hello', 'Makefile'), 'utf8')).toContain(
      'entropic-abi-headers --include-dir',
    );

    const build = sh('make -C hello 2>&1', work);
    expect(build).not.toMatch(/warning/i);
    expect(existsSync(join(work, 'hello', 'build', 'libhello.so'))).toBe(true);

    const transport = new StdioClientTransport({
      command: 'sh',
      args: ['-c', 'entropic-mcp serve --plugin $PWD/hello/build/libhello.so'],
      cwd: work,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'new-plugin-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['hello.countdown', 'hello.hello']);
      expect(tools.find((t) => t.name === 'hello.hello')?.description).toBe('Greets someone by name.');
      const hi = await client.callTool({ name: 'hello.hello', arguments: { name: 'Ada "the first"' } });
      expect(hi.isError).toBeFalsy();
      expect(textOf(hi)).toBe('Hello, Ada "the first"!');
      expect(hi._meta?.['io.entropic/directives']).toEqual([]);
      const steps: number[] = [];
      const down = await client.callTool({ name: 'hello.countdown', arguments: { from: 3 } }, undefined, {
        onprogress: (p) => steps.push(p.progress),
      });
      expect(textOf(down)).toBe('Lift-off at 0');
      // The scaffold speaks through the plugin context: progress reaches the client (the SDK v1 client may
      // drop the last update when it arrives with the answer).
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(steps).toEqual([1, 2, 3].slice(0, steps.length));
    } finally {
      await client.close();
    }
  });

  it('--plain scaffolds the API-1 form alone: no plugin context, the same hello', () => {
    const work = tempDir('new-plugin-plain');
    sh('entropic-mcp new-plugin flat --plain && make -s -C flat', work);
    const source = readFileSync(join(work, 'flat', 'src', 'plugin.c'), 'utf8');
    expect(source).not.toContain('i_mcp_context.h');
    expect(existsSync(join(work, 'flat', 'src', 'plugin.plain.c'))).toBe(false);
    const lib = join(work, 'flat', 'build', 'libflat.so');
    expect(sh(`entropic-mcp verify-plugin ${lib}`, work)).toContain(
      '• plugin context: no (a plain API-1 plugin)',
    );
    expect(sh(`entropic-mcp call ${lib} hello '{"name":"Bo"}'`, work)).toContain('"result": "Hello, Bo!"');
    const scaffolded = join(work, 'ctx');
    sh('entropic-mcp new-plugin ctx && make -s -C ctx', work);
    expect(sh(`entropic-mcp verify-plugin ${join(scaffolded, 'build', 'libctx.so')}`, work)).toContain(
      '• plugin context: yes (entropic_mcp_server_execute_with_context)',
    );
  });

  it('builds against the include dir found at scaffold time when entropic-abi is not on PATH', () => {
    const work = tempDir('new-plugin-nopath');
    sh('entropic-mcp new-plugin solo --dir plugins', work);
    const bare = { ...process.env, PATH: '/usr/bin:/bin' };
    execFileSync('make', ['-C', join(work, 'plugins', 'solo')], { env: bare, stdio: 'ignore' });
    expect(existsSync(join(work, 'plugins', 'solo', 'build', 'libsolo.so'))).toBe(true);
  });

  it('refuses a bad name and an existing folder', () => {
    const work = tempDir('new-plugin-bad');
    expect(() => sh('entropic-mcp new-plugin "1bad name"', work)).toThrow(/invalid plugin name "1bad name"/);
    sh('entropic-mcp new-plugin twice', work);
    expect(() => sh('entropic-mcp new-plugin twice', work)).toThrow(/already exists and is not empty/);
  });
});
