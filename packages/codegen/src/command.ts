// The shape of an `entropic-abi` command module, its exit codes and its usage errors.
import { UsageError } from './model/errors.js';

/**
 * What a file in `commands/` exports. The CLI imports `commands/<name>.js` only when that
 * command is run, so adding a command is adding a file.
 */
export interface CommandModule {
  /** One line for `entropic-abi --help`. */
  summary: string;
  /** The synopsis, e.g. `entropic-abi generate [--out DIR]`. */
  usage: string;
  /** Every option and what the command prints, shown by `entropic-abi <command> --help`. */
  help?: string;
  /** Runs the command; resolves to the exit code (0 ok, 1 verdict failure). */
  run(args: string[], context?: CommandContext): Promise<number> | number;
}

/** Where a command runs and where its output goes (the CLI: the process's cwd and console). */
export interface CommandContext {
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** The environment the command reads (CI, for example); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The context of a command run from the command line. */
export function processContext(): CommandContext {
  return { cwd: process.cwd(), out: (t) => console.log(t), err: (t) => console.error(t), env: process.env };
}

/** Exit codes of `entropic-abi`. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export { UsageError };

/** Runs an argument parser (e.g. `node:util` parseArgs) and turns what it throws into a UsageError. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Fails with a UsageError when positionals were given to a command that takes none. */
export function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
}
