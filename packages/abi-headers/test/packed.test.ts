// The headers without the code generator: pack this package alone, install the tarball with plain npm into an
// empty project, ask its `entropic-abi-headers` bin for the include folder and compile a plugin source with it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_ROOT = join(import.meta.dirname, '..');
const FIXTURE = join(import.meta.dirname, 'fixtures', 'packed', 'version.c');
let scratch: string;
let project: string;

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'abi-headers-packed-'));
  run('pnpm', ['pack', '--pack-destination', scratch], PACKAGE_ROOT);
  const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball into ${scratch}`);
  project = join(scratch, 'project');
  run('mkdir', [project], scratch);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'headers-only', private: true }));
  run(
    'npm',
    ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', join(scratch, tarball)],
    project,
  );
}, 180_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('@entropic-mcp/abi-headers installed alone', () => {
  it('brings no code generator along', () => {
    expect(readdirSync(join(project, 'node_modules', '@entropic-mcp'))).toEqual(['abi-headers']);
    expect(existsSync(join(project, 'node_modules', 'ts-morph'))).toBe(false);
  });

  it('prints its include folder, and a plugin source compiles against it', () => {
    const bin = join(project, 'node_modules', '.bin', 'entropic-abi-headers');
    const include = run(bin, ['--include-dir'], project).trim();
    expect(include).toBe(join(project, 'node_modules', '@entropic-mcp', 'abi-headers', 'include'));
    const so = join(scratch, 'libversion.so');
    run(
      'cc',
      ['-std=c11', '-fPIC', '-fvisibility=hidden', `-I${include}`, '-shared', '-o', so, FIXTURE],
      project,
    );
    expect(run('nm', ['-D', '--defined-only', so], project)).toContain('entropic_plugin_api_version');
  });

  it('ships the binary reference but not the release records kept in the repository', () => {
    const abi = join(project, 'node_modules', '@entropic-mcp', 'abi-headers', 'abi');
    expect(existsSync(join(abi, 'entropic-mcp-plugin.abi'))).toBe(true);
    expect(existsSync(join(abi, 'releases'))).toBe(false);
  });

  it('answers --version', () => {
    const bin = join(project, 'node_modules', '.bin', 'entropic-abi-headers');
    expect(run(bin, ['--version'], project).trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [['--include'], 'entropic-abi-headers: unknown arguments: --include'],
    [['--include-dir', 'extra'], 'entropic-abi-headers: unknown arguments: --include-dir extra'],
    [['--include-dir', '--lock'], 'entropic-abi-headers: one option at a time: --include-dir --lock'],
  ])('a usage error (%j) is one line and a hint, not the usage text', (args, first) => {
    const bin = join(project, 'node_modules', '.bin', 'entropic-abi-headers');
    let failure: { status?: number; stderr?: string } = {};
    try {
      run(bin, args, project);
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure.status).toBe(2);
    const lines = (failure.stderr ?? '').trimEnd().split('\n');
    expect(lines, failure.stderr).toEqual([first, 'run `entropic-abi-headers --help` for its options']);
  });
});
