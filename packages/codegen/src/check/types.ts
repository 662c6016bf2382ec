// What a gate rule reports.

export type RuleId =
  | 'definitions'
  | 'generated-files'
  | 'lock-stale'
  | 'lock-integrity'
  | 'lock-history'
  | 'version-not-bumped'
  | 'bump-without-change'
  | 'version-decreased'
  | 'release-not-major'
  | 'release-not-minor'
  | 'binary-reference'
  | 'binary-not-bumped'
  | 'release-not-recorded'
  | 'release-records'
  | 'nothing-to-compare';

export interface Finding {
  rule: RuleId;
  /** What is wrong and what to do about it, in full sentences. */
  message: string;
}

export interface CheckReport {
  findings: Finding[];
  /** Facts about the run: the base used, layers skipped and why. */
  notes: string[];
}

/** The command that refreshes the lock, named in messages. */
export const LOCK_COMMAND = 'pnpm exec entropic-abi lock';
/** The command that regenerates headers and tables, named in messages. */
export const GENERATE_COMMAND_HINT = 'pnpm exec entropic-abi generate';
