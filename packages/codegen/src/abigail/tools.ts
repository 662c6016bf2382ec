// Running the external programs the binary layer relies on: gcc, nm and libabigail's abidw/abidiff.
import { spawnSync } from 'node:child_process';
import { CodegenError } from '../model/errors.js';

export interface ToolResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Raised when a program the binary layer needs is not installed. */
export class ToolMissingError extends CodegenError<'ABI_TOOL_MISSING'> {
  override readonly name = 'ToolMissingError';
  constructor(
    readonly tool: string,
    readonly hint: string,
  ) {
    super('ABI_TOOL_MISSING', `${tool} is not installed (${hint})`);
  }
}

const HINTS: Record<string, string> = {
  abidw: 'install abigail-tools: apt-get install -y abigail-tools',
  abidiff: 'install abigail-tools: apt-get install -y abigail-tools',
  gcc: 'install gcc: apt-get install -y gcc',
  nm: 'install binutils: apt-get install -y binutils',
};

/** Runs a program to completion; a missing program becomes a ToolMissingError. */
export function runTool(
  cmd: string,
  args: string[],
  opts: { cwd?: string; input?: string } = {},
): ToolResult {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) {
    if ((r.error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolMissingError(cmd, HINTS[cmd] ?? `put ${cmd} on PATH`);
    }
    throw r.error;
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

const available = new Map<string, boolean>();

/** True when `cmd` can be started (checked once per process). */
export function hasTool(cmd: string): boolean {
  let ok = available.get(cmd);
  if (ok === undefined) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    ok = !r.error;
    available.set(cmd, ok);
  }
  return ok;
}

/** The binary layer runs only where libabigail is installed. */
export function abigailAvailable(): boolean {
  return hasTool('abidw') && hasTool('abidiff');
}
