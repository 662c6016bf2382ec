/** Pieces the CLI commands share: option parsing, error printing, crash containment. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import { PluginError } from '@entropic-mcp/loader';
import { UsageError } from '../config/errors.js';
import { readSandboxFlag } from '../config/sandbox.js';

export { UsageError };

/** Set in the child process that runs an in-process (`--isolation none`) command for its parent. */
const CHILD_ENV = 'ENTROPIC_MCP_CLI_CONTAINED';

export function isolationOf(value: string | undefined): Isolation {
  if (value === undefined) return 'process';
  if (value === 'process' || value === 'none') return value;
  throw new UsageError(`--isolation must be process or none, got "${value}"`);
}

/**
 * A command's options and positionals; an unknown or malformed option is a `UsageError` (one line and the
 * hint, as every usage error of the CLI).
 */
export function parseCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O }>> {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--sandbox SPEC` of `inspect` and `call`, read as `serve --sandbox` reads it. */
export function sandboxOf(spec: string | undefined): SandboxOptions | undefined {
  if (spec === undefined) return undefined;
  try {
    return readSandboxFlag(spec, process.cwd());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A plugin path from the command line: relative paths are taken from the current directory. */
export function pluginPath(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing PLUGIN.so');
  return resolve(value);
}

/** The one PLUGIN.so a command takes (`inspect`, `verify-plugin`); anything after it is a usage error. */
export function onePluginPath(positionals: readonly string[]): string {
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  return pluginPath(positionals[0]);
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The line after a usage error: where the options are explained (the error itself is one line). */
export function usageHint(command: string): string {
  return `run \`entropic-mcp ${command} --help\` for its options\n`;
}

/** Prints an error the way every command does; returns the exit status. */
export function report(command: string, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`entropic-mcp ${command}: ${error.message}\n${usageHint(command)}`);
    return 2;
  }
  if (error instanceof PluginError) {
    const value = error.errno === undefined ? '' : ` (${error.errno})`;
    process.stderr.write(`entropic-mcp ${command}: ${error.code}${value}: ${error.message}\n`);
    return 1;
  }
  if (error instanceof TypeError) {
    process.stderr.write(`entropic-mcp ${command}: ${error.message}\n`);
    return 2;
  }
  process.stderr.write(
    `entropic-mcp ${command}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  return 1;
}

/**
 * In-process mode puts the plugin inside this process, where a segfault cannot be caught. So the command
 * runs in a child Node process; if that child dies from a signal, this process reports it and exits 1.
 * Returns undefined when this process is that child (the caller then does the work itself).
 */
export function runContained(command: string, argv: string[]): number | undefined {
  if (process.env[CHILD_ENV] === '1') return undefined;
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  const child = spawnSync(process.execPath, [cli, command, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, [CHILD_ENV]: '1' },
  });
  if (child.error !== undefined) return report(command, child.error);
  if (child.signal !== null) {
    process.stderr.write(
      `entropic-mcp ${command}: ENTROPIC_PLUGIN_CRASHED: the plugin killed the process with ${child.signal} ` +
        '(in-process mode cannot contain a crash; --isolation process can)\n',
    );
    return 1;
  }
  return child.status ?? 1;
}
