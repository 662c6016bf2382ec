// The published shape: `pnpm pack` every package, install the tarballs with plain npm into an empty project
// outside the workspace, build a plugin against headers generated from the installed package, serve it with the
// installed `entropic-mcp`, and call it with the official SDK client. Also runs publint on every tarball.
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, textOf } from './serve-helpers.js';

const PACKAGES = ['abi-headers', 'codegen', 'server', 'loader'];
const MINUTES = 60_000;

let packs: string;
let project: string;
const tarballs: Record<string, string> = {};

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    );
  }
}

beforeAll(() => {
  packs = tempDir('packs');
  for (const name of PACKAGES) {
    run('pnpm', ['pack', '--pack-destination', packs], join(REPO_ROOT, 'packages', name));
    const file = readdirSync(packs).find((f) => f.startsWith(`entropic-mcp-${name}-`) && f.endsWith('.tgz'));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${name} into ${packs}`);
    tarballs[name] = join(packs, file);
  }
  project = tempDir('packed-project');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'packed-check', private: true, type: 'module' }),
  );
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', ...PACKAGES.map((n) => tarballs[n]!)],
    project,
  );
}, 10 * MINUTES);

describe('packed tarballs', () => {
  it('have no workspace: ranges left', () => {
    for (const name of PACKAGES) {
      const manifest = run('tar', ['xzf', tarballs[name]!, '-O', 'package/package.json'], packs);
      expect(manifest, name).not.toContain('workspace:');
    }
  });

  it('are publint clean (strict)', () => {
    const publint = join(REPO_ROOT, 'node_modules', '.bin', 'publint');
    for (const name of PACKAGES) {
      const out = run(publint, ['run', tarballs[name]!, '--strict'], REPO_ROOT);
      expect(out, name).not.toMatch(/warning|error|suggestion/i);
    }
  });

  it(
    'install with npm, generate headers, compile a plugin, serve it and answer the SDK client',
    async () => {
      const bin = join(project, 'node_modules', '.bin');
      const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
      const headers = join(project, 'abi');
      run('npx', ['--no-install', 'entropic-abi', 'generate', '--out', headers, '--quiet'], project, env);
      run('npx', ['--no-install', 'entropic-mcp', 'new-plugin', 'packed'], project, env);
      run('make', ['-C', 'packed', `ENTROPIC_INCLUDE=${join(headers, 'include')}`], project, env);
      const so = join(project, 'packed', 'build', 'libpacked.so');

      const transport = new StdioClientTransport({
        command: join(bin, 'entropic-mcp'),
        args: ['serve', '--plugin', so, '--root', project],
        cwd: project,
        env: env as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'packed-check', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(['packed.hello']);
        const result = await client.callTool({ name: 'packed.hello', arguments: { name: 'tarball' } });
        expect(textOf(result)).toBe('Hello, tarball!');
      } finally {
        await client.close();
      }
    },
    5 * MINUTES,
  );
});
