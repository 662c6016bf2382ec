/**
 * One `entropic-mcp <command>` run inside the test process: the built command module's `run(argv)` (what the
 * CLI's entry calls and turns into the exit status), with what it writes to stdout and stderr captured. For
 * tests whose subject is a command's answer (help text, a usage error), not the process.
 */

import { join } from 'node:path';
import { SERVE_ROOT } from '@entropic-mcp/test-kit/serve-process';

export interface CommandRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

let running = false;

export async function runCommand(command: string, ...argv: string[]): Promise<CommandRun> {
  if (running) throw new Error('runCommand: one command at a time (it captures process.stdout and stderr)');
  running = true;
  const module = (await import(join(SERVE_ROOT, 'dist', 'cli', `${command}.js`))) as {
    run(argv: string[]): Promise<number>;
  };
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const status = await module.run(argv);
    return { status, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    running = false;
  }
}
