// `entropic-abi record-release`: keeps what the current version of @entropic-mcp/abi-headers promises (its lock
// and binary reference) in abi/releases/<version>/, where `entropic-abi check` finds the last release.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { compareHeadersWithReference, referencePath } from '../abigail/reference.js';
import { abigailAvailable } from '../abigail/tools.js';
import { RecordError, writeRecord } from '../check/records.js';
import { RELEASE_VERSION } from '../check/release.js';
import { GENERATE_COMMAND_HINT, LOCK_COMMAND } from '../check/types.js';
import {
  asUsage,
  type CommandContext,
  EXIT_FAILURE,
  EXIT_OK,
  noPositionals,
  processContext,
  UsageError,
} from '../command.js';
import { INCLUDE_DIR } from '../generate.js';
import { lockEntry, parseLock } from '../lock/lock-file.js';
import { readAbiModel } from '../model/read-model.js';
import { workingAbiHeadersRoot } from '../paths.js';

export const summary =
  "Record the ABI the current abi-headers version promises (abi/releases/<version>/), for the gate's release check.";
export const usage = 'entropic-abi record-release [--baseline]';

/** The options and what the command prints, for `--help`. */
export const help = `  --baseline    mark the record as the baseline written before the first release (the ABI as committed
                at the current, never published, version)

Run it in a release, after \`changeset version\` has set the new version of @entropic-mcp/abi-headers, and
commit the folder with the release. It copies abi.lock.json and the binary reference abi/entropic-mcp-plugin.abi
into abi/releases/<version>/ beside a release.json. It refuses a lock that is not current, a reference that
does not match the headers (where abigail-tools is installed), a different record of the same version, and a
record of a later version. Prints what it wrote, or that the record was already there; exit 0 on success.`;

export function run(args: string[], ctx: CommandContext = processContext()): number {
  const { values, positionals } = asUsage(() =>
    parseArgs({ args, options: { baseline: { type: 'boolean' } }, allowPositionals: true }),
  );
  noPositionals(positionals);
  const root = workingAbiHeadersRoot(ctx.cwd);
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string })
    .version;
  if (!version || !RELEASE_VERSION.test(version))
    throw new UsageError(`${root}/package.json has version ${version}; a release record needs X.Y.Z`);
  const model = readAbiModel({ definitionsDir: join(root, 'src', 'abi') });
  const lockPath = join(root, 'abi.lock.json');
  const lockText = existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null;
  const entry = lockText ? parseLock(lockText, lockPath).versions[String(model.apiVersion)] : undefined;
  const want = lockEntry(model);
  if (!lockText || entry?.fingerprint !== want.fingerprint) {
    ctx.err(
      `not recorded: ${lockPath} does not lock the definitions' API version ${model.apiVersion} as they are. ` +
        `Run \`${GENERATE_COMMAND_HINT}\` and \`${LOCK_COMMAND}\`, and let \`pnpm exec entropic-abi check\` pass first.`,
    );
    return EXIT_FAILURE;
  }
  const reference = referencePath(root);
  if (!existsSync(reference)) {
    ctx.err(
      `not recorded: ${reference} does not exist; run \`${LOCK_COMMAND}\` where abigail-tools is installed.`,
    );
    return EXIT_FAILURE;
  }
  if (abigailAvailable()) {
    const cmp = compareHeadersWithReference(join(root, INCLUDE_DIR), reference);
    if (cmp.kind !== 'same') {
      ctx.err(`not recorded: ${reference} does not describe ${INCLUDE_DIR}/; run \`${LOCK_COMMAND}\` first.`);
      return EXIT_FAILURE;
    }
  } else {
    ctx.err(
      'abigail-tools is not installed: the binary reference was recorded without comparing it with the headers',
    );
  }
  try {
    const { folder, written } = writeRecord(root, {
      version,
      kind: values.baseline ? 'baseline' : 'release',
      apiVersion: model.apiVersion,
      fingerprint: want.fingerprint,
      lockText,
      referenceText: readFileSync(reference, 'utf8'),
    });
    const where = relative(ctx.cwd, folder) || '.';
    ctx.out(
      `${written ? 'recorded' : 'already recorded'} @entropic-mcp/abi-headers ${version} ` +
        `(API version ${model.apiVersion}, ${want.fingerprint}) in ${where}`,
    );
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    ctx.err(`not recorded: ${e.message}`);
    return EXIT_FAILURE;
  }
}
