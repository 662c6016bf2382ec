// `entropic-abi generate`: writes the headers and loader tables from the definitions.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, type CommandContext, noPositionals, processContext } from '../command.js';
import { generateAll } from '../generate.js';
import { workingAbiHeadersRoot } from '../paths.js';

export const summary = 'Generate the C headers and the loader tables from the ABI definitions.';
export const usage = 'entropic-abi generate [--out DIR] [--quiet]';

/** The options and what the command prints, for `--help`. */
export const help = `  --out DIR   write into DIR instead of the installed @entropic-mcp/abi-headers package (the same layout:
              include/, native/, src/generated/)
  --quiet     do not list the files written

Reads the ABI definitions (abi-headers' src/abi/*.ts) and writes every generated file. Exit 0 on success.`;

export function run(args: string[], ctx: CommandContext = processContext()): number {
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
  const pkg = workingAbiHeadersRoot(ctx.cwd);
  const root = resolve(ctx.cwd, values.out ?? pkg);
  const files = generateAll({ out: root, definitionsDir: join(pkg, 'src', 'abi') });
  if (!values.quiet) for (const path of Object.keys(files)) ctx.out(`wrote ${resolve(root, path)}`);
  return 0;
}
