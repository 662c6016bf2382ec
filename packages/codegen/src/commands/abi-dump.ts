// `entropic-abi abi-dump`: the binary ABI of the headers against the committed reference; --update rewrites it.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareHeadersWithReference, referencePath, updateReference } from '../abigail/reference.js';
import { abigailAvailable } from '../abigail/tools.js';
import {
  asUsage,
  type CommandContext,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  noPositionals,
  processContext,
} from '../command.js';
import { workingAbiHeadersRoot } from '../paths.js';

export const summary =
  "Compare the headers' binary ABI (libabigail) with the committed reference; --update rewrites it.";
export const usage = 'entropic-abi abi-dump [--update] [--include DIR] [--reference FILE.abi]';

/** The options and what the command prints, for `--help`. */
export const help = `  --update            write the reference instead of comparing with it
  --include DIR       the headers to dump (default: abi-headers' include/)
  --reference FILE    the reference ABI dump (default: the one abi-headers ships)

Needs abidw and abidiff (apt-get install -y abigail-tools). Exit 0 when the ABI matches (or was written), 1 when
it differs, 2 on a usage error or when the tools are missing.`;

export async function run(args: string[], ctx: CommandContext = processContext()): Promise<number> {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args,
      options: { update: { type: 'boolean' }, include: { type: 'string' }, reference: { type: 'string' } },
      allowPositionals: true,
    }),
  );
  noPositionals(positionals);
  const root = workingAbiHeadersRoot(ctx.cwd);
  const include = resolve(ctx.cwd, values.include ?? join(root, 'include'));
  const reference = resolve(ctx.cwd, values.reference ?? referencePath(root));
  if (!abigailAvailable()) {
    ctx.err(
      'entropic-abi abi-dump: abidw/abidiff not found; install abigail-tools (apt-get install -y abigail-tools)',
    );
    return EXIT_USAGE;
  }
  if (values.update) {
    const changed = updateReference(include, reference);
    ctx.out(`${changed ? 'wrote' : 'unchanged'} ${reference}`);
    return EXIT_OK;
  }
  const cmp = compareHeadersWithReference(include, reference);
  if (cmp.kind === 'same') {
    ctx.out(`the binary ABI of ${include} matches ${reference}`);
    return EXIT_OK;
  }
  if (cmp.kind === 'missing') {
    ctx.err(`no reference at ${reference}; create it with entropic-abi abi-dump --update`);
    return EXIT_FAILURE;
  }
  ctx.err(`the binary ABI of ${include} differs from ${reference}; abidiff reports:\n${cmp.report}`);
  return EXIT_FAILURE;
}
