// The `entropic-abi model` command: prints the ABI model read from the definitions as JSON.
import { parseArgs } from 'node:util';
import { asUsage, noPositionals } from '../command.js';
import { readAbiModel } from '../model/read-model.js';

export const summary = 'Print the ABI model read from the definitions, as JSON.';
export const usage = 'entropic-abi model [--definitions DIR]';

/** The options and what the command prints, for `--help`. */
export const help = `  --definitions DIR   read the ABI definitions from DIR (default: abi-headers' src/abi)

Prints the one ABI model every generator renders from (entry points, types, error codes), as JSON.`;

export function run(args: string[]): number {
  const { values, positionals } = asUsage(() =>
    parseArgs({ args, options: { definitions: { type: 'string' } }, allowPositionals: true }),
  );
  noPositionals(positionals);
  const model = readAbiModel(values.definitions ? { definitionsDir: values.definitions } : {});
  console.log(JSON.stringify(model, null, 2));
  return 0;
}
