import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, noPositionals } from '../command.js';
import { INCLUDE_DIR } from '../generate.js';
import { abiHeadersRoot } from '../paths.js';

export const summary = "Print the absolute path of abi-headers' include directory (for -I).";
export const usage = 'entropic-abi include-dir';

export function run(args: string[]): number {
  noPositionals(asUsage(() => parseArgs({ args, options: {}, allowPositionals: true })).positionals);
  console.log(join(abiHeadersRoot(), INCLUDE_DIR));
  return 0;
}
