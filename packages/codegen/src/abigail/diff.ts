// abidiff and the meaning of its exit status.
import { runTool } from './tools.js';

// abidiff's exit status is a bit field.
const ERROR = 1;
const USAGE_ERROR = 2;
const ABI_CHANGE = 4;
const ABI_INCOMPATIBLE_CHANGE = 8;

export interface AbiDiff {
  /** Some ABI change was found (exit bit 4). */
  changed: boolean;
  /** abidiff judged a change incompatible (exit bit 8). */
  incompatible: boolean;
  /** abidiff's report, trimmed. */
  report: string;
}

export interface AbiDiffOptions {
  /** Also report changes abidiff deems harmless (const qualifiers, enumerator additions). */
  harmless?: boolean;
  /** Leave out added functions and variables (new declarations break nothing already built). */
  noAdded?: boolean;
  /** A libabigail suppression specification file. */
  suppressions?: string;
}

/** Compares two ABI artefacts (abixml dumps or ELF files); throws when abidiff itself fails. */
export function abidiff(before: string, after: string, opts: AbiDiffOptions = {}): AbiDiff {
  const args: string[] = [];
  if (opts.harmless) args.push('--harmless');
  if (opts.noAdded) args.push('--no-added-syms');
  if (opts.suppressions) args.push('--suppressions', opts.suppressions);
  const r = runTool('abidiff', [...args, before, after]);
  if (r.status & (ERROR | USAGE_ERROR)) {
    throw new Error(
      `abidiff ${before} ${after} failed (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`,
    );
  }
  return {
    changed: (r.status & (ABI_CHANGE | ABI_INCOMPATIBLE_CHANGE)) !== 0,
    incompatible: (r.status & ABI_INCOMPATIBLE_CHANGE) !== 0,
    report: r.stdout.trim(),
  };
}

/** Lines of a report that only say a type or an object grew: members inserted at its end. */
const GROWTH_LINES = [
  /^(?:Functions|Variables) changes summary:/,
  /has some indirect sub-type changes:$/,
  /has sub-type changes:$/,
  /^in (?:pointed to|unqualified underlying) type '.*':$/,
  /^underlying type 'struct (\w+)' changed:$/,
  /^type size changed from \d+ to \d+ \(in bits\)$/,
  /^\d+ data member insertions?:$/,
  /^'.*', at offset \d+ \(in bits\)$/,
  /^\d+ (?:function|Changed variable)s? with some indirect sub-type changes?:$/,
  /^\d+ Changed variables?:$/,
  /^\[C\] '(\w+) \w+' was changed:$/,
  /^size of symbol changed from \d+ to \d+$/,
];

/**
 * True when every change in an abidiff report is growth at the end of one of the `growable` structs
 * (members inserted after the last one, the struct and its objects larger): what appending to a growable
 * struct looks like. A member moved, retyped, renamed or removed, or another type changed, makes it false.
 */
export function onlyGrowth(report: string, growable: readonly string[]): boolean {
  const lines = report
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return (
    lines.length > 0 &&
    lines.every((line) =>
      GROWTH_LINES.some((re) => {
        const m = re.exec(line);
        // A line naming a type (the struct that grew, the object of that type) must name a growable one.
        return m !== null && (m[1] === undefined || growable.includes(m[1]));
      }),
    )
  );
}

/** Names of the functions an abidiff report lists as changed ([C]) or removed ([D]). */
export function reportedFunctions(report: string): { changed: string[]; removed: string[] } {
  const changed: string[] = [];
  const removed: string[] = [];
  const re = /^\s*\[([CD])\] 'function [^']*?\b([A-Za-z_]\w*)\(/gm;
  for (const m of report.matchAll(re)) (m[1] === 'C' ? changed : removed).push(m[2]!);
  return { changed, removed };
}
