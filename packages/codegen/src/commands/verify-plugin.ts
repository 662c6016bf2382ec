// `entropic-abi verify-plugin`: a built plugin library against the contract's entry points and signatures.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pluginVerdictOk, verifyPlugin } from '../abigail/plugin.js';
import { referencePath } from '../abigail/reference.js';
import { asUsage, EXIT_FAILURE, EXIT_OK, UsageError } from '../command.js';
import { parseLock } from '../lock/lock-file.js';
import { abiHeadersRoot, defaultLockPath } from '../paths.js';

export const summary =
  'Check a built plugin library: the nine entry points exported, signatures as in the contract.';
export const usage = 'entropic-abi verify-plugin LIB.so [--reference FILE.abi] [--lock FILE]';

/** The options and what the command prints, for `--help`. */
export const help = `  LIB.so              the built plugin library to check
  --reference FILE    the reference ABI dump (default: the one abi-headers ships)
  --lock FILE         the ABI lock that says which entry points are optional (default: abi-headers' own)

Checks that all nine entry points are exported as functions and that their signatures match the contract
(libabigail); an optional entry point (the plugin context) may be left out, and is checked when it is there.
Exit 0 when they do, 1 when not, 2 on a usage error.`;

/** The optional entry points of the lock's latest API version. */
function optionalEntryPoints(lockFile: string): string[] {
  const lock = parseLock(readFileSync(lockFile, 'utf8'), lockFile);
  const latest = Object.keys(lock.versions).sort((a, b) => Number(b) - Number(a))[0];
  const functions = latest === undefined ? [] : (lock.versions[latest]?.locked.functions ?? []);
  return functions.filter((f) => f.optional === true).map((f) => f.name);
}

/** Lines of abidiff's account shown per drifted function. */
const DETAIL_LINES = 16;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args,
      options: { reference: { type: 'string' }, lock: { type: 'string' } },
      allowPositionals: true,
    }),
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one plugin library');
  const lib = positionals[0]!;
  const reference = values.reference ?? referencePath(abiHeadersRoot());
  if (!existsSync(lib)) throw new UsageError(`${lib} does not exist`);
  if (!existsSync(reference)) {
    throw new UsageError(
      `the ABI reference ${reference} does not exist (create it: entropic-abi abi-dump --update)`,
    );
  }
  const lockFile = values.lock ?? defaultLockPath();
  if (!existsSync(lockFile)) throw new UsageError(`the ABI lock ${lockFile} does not exist`);
  const v = verifyPlugin(lib, reference, readFileSync(reference, 'utf8'), optionalEntryPoints(lockFile));
  const exported = v.required.length - v.missing.length - v.notFunctions.length;
  const lines = [`${lib}: ${exported} of ${v.required.length} entry points exported as functions`];
  lines.push(
    v.optionalExported.length > 0
      ? `• plugin context: yes (${v.optionalExported.join(', ')})`
      : '• plugin context: no (a plain API-1 plugin)',
  );
  if (v.missing.length) lines.push(`✖ missing entry points: ${v.missing.join(', ')}`);
  for (const n of v.notFunctions)
    lines.push(`✖ ${n.name} is exported, but not as a function (nm type ${n.type})`);
  for (const n of v.engineCalls) {
    lines.push(
      `✖ calls ${n}, which no entropic MCP loader provides (an engine-side function; see the @entropic-mcp/abi-headers README): loading fails with "undefined symbol: ${n}"`,
    );
  }
  if (v.signaturesSkipped) lines.push(`• signatures not compared: ${v.signaturesSkipped}`);
  else if (v.drift.length === 0) lines.push('✔ the exported entry points have the contract signatures');
  for (const d of v.drift) {
    const detail = d.detail.split('\n');
    lines.push(`✖ ${d.name} drifted from the contract:`);
    lines.push(...detail.slice(0, DETAIL_LINES).map((l) => `    ${l.trim()}`));
    if (detail.length > DETAIL_LINES) lines.push(`    … ${detail.length - DETAIL_LINES} more lines`);
  }
  const ok = pluginVerdictOk(v);
  lines.push(
    ok ? 'verify-plugin: OK' : 'verify-plugin: FAILED — the plugin does not match the entropic plugin ABI',
  );
  (ok ? console.log : console.error)(lines.join('\n'));
  return ok ? EXIT_OK : EXIT_FAILURE;
}
