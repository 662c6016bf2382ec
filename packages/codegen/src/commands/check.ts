// `entropic-abi check`: the ABI gate over the work tree, against a base commit and, on request, a release.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../check/git.js';
import { formatReport } from '../check/report.js';
import { CheckUsageError, runCheck } from '../check/run.js';
import {
  asUsage,
  type CommandContext,
  EXIT_FAILURE,
  EXIT_OK,
  processContext,
  UsageError,
} from '../command.js';
import { abiHeadersRoot } from '../paths.js';

export const summary =
  'The ABI gate: generated files fresh, lock current, ABI changes versioned (see README).';
export const usage =
  'entropic-abi check [--base REF | --no-base] [--release latest|TAG|FILE.tgz] [--no-binary]';

/** The options and what the command prints, for `--help`. */
export const help = `  --base REF    compare the ABI with the one at git REF (default: the merge base of HEAD and origin/main or
                main; on main itself, HEAD when the ABI or .changeset has uncommitted changes, else none)
  --no-base     skip the comparison with an earlier ABI (freshness and lock checks only)
  --release latest|TAG|FILE.tgz
                also compare with the last released ABI: the lock of the newest @entropic-mcp/abi-headers
                git tag (latest), of the tag TAG, or inside a packed tarball
  --no-binary   skip the binary layer (libabigail's abidw/abidiff)

Run inside the workspace's git work tree. Prints every finding and what to do about it; exit 0 when there
are none, 1 when there are, 2 on a usage error.`;

export async function run(args: string[], ctx: CommandContext = processContext()): Promise<number> {
  const { values } = asUsage(() =>
    parseArgs({
      args,
      options: {
        base: { type: 'string' },
        'no-base': { type: 'boolean' },
        release: { type: 'string' },
        'no-binary': { type: 'boolean' },
      },
    }),
  );
  if (values.base !== undefined && values['no-base'])
    throw new UsageError('--base and --no-base exclude each other');
  const repo = repoRoot(ctx.cwd);
  if (!repo) throw new UsageError('run it inside the git work tree of the workspace');
  // The package in this work tree when there is one, else the installed package.
  const local = join(repo, 'packages', 'abi-headers');
  const abiRoot = existsSync(join(local, 'package.json')) ? local : abiHeadersRoot();
  let report: Awaited<ReturnType<typeof runCheck>>;
  try {
    report = await runCheck({
      repo,
      abiRoot,
      base: values['no-base'] ? null : values.base,
      ...(values['no-binary'] ? { binary: false } : {}),
      ...(values.release !== undefined ? { release: values.release } : {}),
    });
  } catch (e) {
    if (e instanceof CheckUsageError) throw new UsageError(e.message);
    throw e;
  }
  const text = formatReport(report);
  if (report.findings.length === 0) {
    ctx.out(text);
    return EXIT_OK;
  }
  ctx.err(text);
  return EXIT_FAILURE;
}
