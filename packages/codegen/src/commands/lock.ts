import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { asUsage, noPositionals } from '../command.js';
import { parseLock, renderLock } from '../lock/lock-file.js';
import { readAbiModel } from '../model/read-model.js';
import { defaultLockPath } from '../paths.js';

export const summary = 'Write or refresh the lock entry of the current API version in abi.lock.json.';
export const usage = 'entropic-abi lock [--file PATH]';

/** The options and what the command prints, for `--help`. */
export const help = `  --file PATH   the lock to write (default: abi-headers' abi.lock.json)

Records what the current API version promises, with a fingerprint; an entry of an earlier version is kept as
it is. Prints whether the file changed. Exit 0 on success.`;

export function run(args: string[]): number {
  const { values, positionals } = asUsage(() =>
    parseArgs({ args, options: { file: { type: 'string' } }, allowPositionals: true }),
  );
  noPositionals(positionals);
  const path = resolve(values.file ?? defaultLockPath());
  const previous = existsSync(path) ? parseLock(readFileSync(path, 'utf8'), path) : undefined;
  const model = readAbiModel();
  const text = renderLock(model, previous);
  const changed = !existsSync(path) || readFileSync(path, 'utf8') !== text;
  if (changed) writeFileSync(path, text);
  console.log(`${changed ? 'wrote' : 'unchanged'} ${path} (API version ${model.apiVersion})`);
  return 0;
}
