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
  /** A libabigail suppression specification file. */
  suppressions?: string;
}

/** Compares two ABI artefacts (abixml dumps or ELF files); throws when abidiff itself fails. */
export function abidiff(before: string, after: string, opts: AbiDiffOptions = {}): AbiDiff {
  const args: string[] = [];
  if (opts.harmless) args.push('--harmless');
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

/** Names of the functions an abidiff report lists as changed ([C]) or removed ([D]). */
export function reportedFunctions(report: string): { changed: string[]; removed: string[] } {
  const changed: string[] = [];
  const removed: string[] = [];
  const re = /^\s*\[([CD])\] 'function [^']*?\b([A-Za-z_]\w*)\(/gm;
  for (const m of report.matchAll(re)) (m[1] === 'C' ? changed : removed).push(m[2]!);
  return { changed, removed };
}
