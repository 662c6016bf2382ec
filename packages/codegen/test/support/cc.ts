// Compiler helpers for the codegen tests: run, temp folders, flags, exported symbols.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a program; throws with its output when it exits non-zero. Returns stdout. */
export function run(cmd: string, args: string[], cwd?: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Runs a program and returns its exit status and output, whatever the status. */
export function attempt(cmd: string, args: string[], cwd?: string): { status: number; output: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

/** A fresh temporary directory and a function that removes it. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const C_FLAGS = ['-std=c99', '-Wall', '-Wextra', '-Werror', '-pedantic'];
export const CXX_FLAGS = ['-std=c++11', '-Wall', '-Wextra', '-Werror'];

/** Defined dynamic symbols of a shared library (`nm -D --defined-only`). */
export function exportedSymbols(lib: string): string[] {
  return run('nm', ['-D', '--defined-only', lib])
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 3)
    .map((parts) => parts[2]!);
}
