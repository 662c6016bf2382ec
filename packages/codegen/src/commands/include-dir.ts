// The `entropic-abi include-dir` command: prints the folder to pass as -I.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, noPositionals } from '../command.js';
import { INCLUDE_DIR } from '../generate.js';
import { abiHeadersRoot } from '../paths.js';

export const summary = "Print the absolute path of abi-headers' include directory (for -I).";
export const usage = 'entropic-abi include-dir';

/** The options and what the command prints, for `--help`. */
export const help = `Prints one line: the folder to pass as -I, e.g. CFLAGS += -I$(shell npx entropic-abi include-dir).
Plugin authors who need only the headers can use \`entropic-abi-headers --include-dir\` from
@entropic-mcp/abi-headers instead, without this package.`;

export function run(args: string[]): number {
  noPositionals(asUsage(() => parseArgs({ args, options: {}, allowPositionals: true })).positionals);
  console.log(join(abiHeadersRoot(), INCLUDE_DIR));
  return 0;
}
