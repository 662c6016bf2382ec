// `entropic-abi check`: the ABI gate over the work tree, against a base commit and the last released ABI.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../check/git.js';
import { formatReport } from '../check/report.js';
import { runCheck } from '../check/run.js';
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
  'entropic-abi check [--base REF | --no-base] [--release latest|X.Y.Z|TAG|FILE.tgz | --no-release] [--no-binary] [--ci]';

/** The options and what the command prints, for `--help`. */
export const help = `  --base REF    compare the ABI with the one at git REF (default: the merge base of HEAD and origin/main or
                main; on main itself, HEAD when the ABI or .changeset has uncommitted changes, else none)
  --no-base     skip the comparison with a base commit
  --release latest|X.Y.Z|TAG|FILE.tgz
                the released ABI to compare with (default latest: the last release record in
                packages/abi-headers/abi/releases/, else the newest @entropic-mcp/abi-headers@X.Y.Z git tag);
                X.Y.Z: that version's record; TAG: a tag or commit; FILE.tgz: a packed abi-headers
  --no-release  skip the comparison with a released ABI
  --no-binary   skip the binary layer (libabigail's abidw/abidiff)
  --ci          fail when there is neither a base nor a release to compare with (also when the
                environment has CI set, as CI services do); otherwise that is only a note

Run inside the workspace's git work tree. Prints every finding and what to do about it; exit 0 when there
are none, 1 when there are, 2 on a usage error.`;

/** CI services set CI (to true, 1 or a name); unset, empty, 0 or false mean not in CI. */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const v = env.CI?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}

export async function run(args: string[], ctx: CommandContext = processContext()): Promise<number> {
  const { values } = asUsage(() =>
    parseArgs({
      args,
      options: {
        base: { type: 'string' },
        'no-base': { type: 'boolean' },
        release: { type: 'string' },
        'no-release': { type: 'boolean' },
        'no-binary': { type: 'boolean' },
        ci: { type: 'boolean' },
      },
    }),
  );
  if (values.base !== undefined && values['no-base'])
    throw new UsageError('--base and --no-base exclude each other');
  if (values.release !== undefined && values['no-release'])
    throw new UsageError('--release and --no-release exclude each other');
  const repo = repoRoot(ctx.cwd);
  if (!repo) throw new UsageError('run it inside the git work tree of the workspace');
  // The package in this work tree when there is one, else the installed package.
  const local = join(repo, 'packages', 'abi-headers');
  const abiRoot = existsSync(join(local, 'package.json')) ? local : abiHeadersRoot();
  // A bad --base or --release is a UsageError from the gate itself: the CLI answers it as any usage error.
  const report = await runCheck({
    repo,
    abiRoot,
    base: values['no-base'] ? null : values.base,
    ...(values['no-binary'] ? { binary: false } : {}),
    release: values['no-release'] ? null : (values.release ?? 'latest'),
    ci: values.ci === true || inCi(ctx.env ?? process.env),
  });
  const text = formatReport(report);
  if (report.findings.length === 0) {
    ctx.out(text);
    return EXIT_OK;
  }
  ctx.err(text);
  return EXIT_FAILURE;
}
