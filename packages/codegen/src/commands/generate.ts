import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, noPositionals } from '../command.js';
import { generateAll } from '../generate.js';
import { abiHeadersRoot } from '../paths.js';

export const summary = 'Generate the C headers and the loader tables from the ABI definitions.';
export const usage = 'entropic-abi generate [--out DIR] [--quiet]';

/** The options and what the command prints, for `--help`. */
export const help = `  --out DIR   write into DIR instead of the installed @entropic-mcp/abi-headers package (the same layout:
              include/, native/, src/generated/)
  --quiet     do not list the files written

Reads the ABI definitions (abi-headers' src/abi/*.ts) and writes every generated file. Exit 0 on success.`;

export function run(args: string[]): number {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args,
      options: {
        out: { type: 'string' },
        quiet: { type: 'boolean' },
      },
      allowPositionals: true,
    }),
  );
  noPositionals(positionals);
  const root = resolve(values.out ?? abiHeadersRoot());
  const files = generateAll({ out: root });
  if (!values.quiet) for (const path of Object.keys(files)) console.log(`wrote ${resolve(root, path)}`);
  return 0;
}
