// `entropic-abi lock`: records the current API version's entry in abi.lock.json and refreshes the
// binary reference beside it, so that `generate` then `lock` leave every committed ABI file current.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { referencePath, updateReference } from '../abigail/reference.js';
import { abigailAvailable } from '../abigail/tools.js';
import { asUsage, type CommandContext, noPositionals, processContext } from '../command.js';
import { INCLUDE_DIR } from '../generate.js';
import { parseLock, renderLock } from '../lock/lock-file.js';
import { readAbiModel } from '../model/read-model.js';
import { workingAbiHeadersRoot } from '../paths.js';

export const summary =
  'Write or refresh the lock entry of the current API version in abi.lock.json, and the binary reference.';
export const usage = 'entropic-abi lock [--file PATH] [--no-binary]';

/** The options and what the command prints, for `--help`. */
export const help = `  --file PATH   the lock to write (default: abi-headers' abi.lock.json)
  --no-binary   do not refresh the binary reference (abi/*.abi); by default it is refreshed when
                abigail-tools is installed, and a note says so when it is not

Records what the current API version promises, with a fingerprint; an entry of an earlier version is kept as
it is. Prints whether the file changed. Exit 0 on success.`;

/** What `lock` says when it cannot refresh the binary reference. */
export const NO_ABIGAIL_NOTE =
  'binary reference NOT refreshed: abigail-tools is not installed (apt-get install -y abigail-tools). ' +
  'If the headers changed, run `pnpm exec entropic-abi abi-dump --update` where it is installed before you ' +
  'commit, or the binary-reference rule fails in CI.';

export function run(args: string[], ctx: CommandContext = processContext()): number {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args,
      options: { file: { type: 'string' }, 'no-binary': { type: 'boolean' } },
      allowPositionals: true,
    }),
  );
  noPositionals(positionals);
  const root = workingAbiHeadersRoot(ctx.cwd);
  const path = resolve(ctx.cwd, values.file ?? join(root, 'abi.lock.json'));
  const previous = existsSync(path) ? parseLock(readFileSync(path, 'utf8'), path) : undefined;
  const model = readAbiModel({ definitionsDir: join(root, 'src', 'abi') });
  const text = renderLock(model, previous);
  const changed = !existsSync(path) || readFileSync(path, 'utf8') !== text;
  if (changed) writeFileSync(path, text);
  ctx.out(`${changed ? 'wrote' : 'unchanged'} ${path} (API version ${model.apiVersion})`);
  if (values['no-binary']) return 0;
  const reference = referencePath(root);
  if (!abigailAvailable()) {
    ctx.err(NO_ABIGAIL_NOTE);
    return 0;
  }
  const refChanged = updateReference(join(root, INCLUDE_DIR), reference);
  ctx.out(`${refChanged ? 'wrote' : 'unchanged'} ${reference} (binary reference, from ${INCLUDE_DIR}/)`);
  return 0;
}
