// Runs every gate rule over a work tree, against a base commit and the last released ABI, and collects findings.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { abigailAvailable } from '../abigail/tools.js';
import { UsageError } from '../model/errors.js';
import { type BaseSource, chooseBase, type OpenedBase } from './bases.js';
import { checkBinaryAgainstBase, checkBinaryReference } from './binary.js';
import { checkGeneratedFiles } from './fresh.js';
import { checkLockCurrent, checkLockHistory, checkLockIntegrity } from './lock-rules.js';
import { RECORDS_DIR, readRecords } from './records.js';
import { type PackageRelease, planFor } from './release.js';
import {
  checkRecordHistory,
  checkRecords,
  chooseRelease,
  RECORD_COMMAND,
  releaseStep,
  sameSide,
} from './released.js';
import { type AbiSide, type AbiState, lockOk, readState, versionSource } from './state.js';
import type { CheckReport, Finding } from './types.js';
import { checkVersioning } from './versioning.js';

export interface CheckOptions {
  /** Root of the git work tree (the workspace root, where .changeset/ lives). */
  repo: string;
  /** The abi-headers package folder; default `<repo>/packages/abi-headers`. */
  abiRoot?: string;
  /** A ref to compare with; `null` for none; absent for the default (see defaultBase). */
  base?: string | null;
  /** Run the libabigail layer; default: when abidw and abidiff are installed. */
  binary?: boolean;
  /**
   * The released ABI to compare with: `latest` (the default: the last release record, else the highest
   * release tag), a recorded version X.Y.Z, a tag, or a packed `.tgz`; `null` for none.
   */
  release?: string | null;
  /** Fail when there is neither a base nor a release to compare with (CI); otherwise that is a note. */
  ci?: boolean;
}

export { UsageError };

function binaryLayer(opts: CheckOptions, notes: string[]): boolean {
  if (opts.binary === false) {
    notes.push('binary layer: disabled by option');
    return false;
  }
  if (!abigailAvailable()) {
    notes.push(
      'binary layer: SKIPPED — abigail-tools is not installed (apt-get install -y abigail-tools); CI runs it',
    );
    return false;
  }
  notes.push('binary layer: stub library compiled from the headers, compared with abidiff');
  return true;
}

function guarded(rule: Finding['rule'], fn: () => Finding[]): Finding[] {
  try {
    return fn();
  } catch (e) {
    return [{ rule, message: (e as Error).message }];
  }
}

interface Comparison {
  repo: string;
  /** The abi-headers folder as the developer knows it (repository-relative). */
  label: string;
  /** The definition file holding the version macro, repository-relative. */
  versionFile: string;
  binary: boolean;
}

/** The versioning, lock-history and binary rules of `head` against `base`. */
async function compare(
  c: Comparison,
  base: AbiSide,
  head: AbiSide,
  source: { label: string; commit?: string },
  release: () => Promise<PackageRelease>,
): Promise<Finding[]> {
  const findings = await checkVersioning({
    base,
    head,
    baseLabel: source.label,
    versionFile: c.versionFile,
    release,
  });
  if (lockOk(base.lock) && lockOk(head.lock))
    findings.push(...checkLockHistory(base.lock, head.lock, head.apiVersion, c.label, source));
  if (c.binary)
    findings.push(...guarded('binary-not-bumped', () => checkBinaryAgainstBase(base, head, source.label)));
  return findings;
}

function open(source: BaseSource, dir: string, notes: string[]): OpenedBase | null {
  mkdirSync(dir, { recursive: true });
  const opened = source.open(dir);
  if (typeof opened === 'string') {
    notes.push(opened);
    return null;
  }
  return opened;
}

/** What `ci` turns into a failure: nothing to compare the work tree with. */
function nothingToCompare(label: string): Finding {
  return {
    rule: 'nothing-to-compare',
    message:
      'In CI the gate must compare the ABI with something, and it found neither a base nor a release: HEAD is ' +
      `the tip of main (or there is no main to fork from), ${label}/${RECORDS_DIR}/ holds no release record and ` +
      'the clone has no release tag. Give it one: commit the record of the released (or, before the first ' +
      `release, the current) ABI with \`${RECORD_COMMAND}\` (\`--baseline\` before the first release), or ` +
      'fetch the release tags (`git fetch --tags`), or pass `--base REF`.',
  };
}

export async function runCheck(opts: CheckOptions): Promise<CheckReport> {
  const repo = resolve(opts.repo);
  const abiRoot = resolve(opts.abiRoot ?? join(repo, 'packages', 'abi-headers'));
  const label = relative(repo, abiRoot).split('\\').join('/') || '.';
  const notes: string[] = [];
  const choice = chooseBase(repo, opts.base, label);
  let head: AbiState;
  try {
    head = readState(abiRoot);
  } catch (e) {
    return { findings: [{ rule: 'definitions', message: (e as Error).message }], notes };
  }
  notes.push(`API version ${head.model.apiVersion}`);
  const records = readRecords(abiRoot, label);
  const findings: Finding[] = [
    ...checkGeneratedFiles(head.model, abiRoot, label),
    ...checkLockCurrent(head, label),
    ...(lockOk(head.lock) ? checkLockIntegrity(head.lock, label) : []),
    ...checkRecords(head, records, label),
  ];
  const binary = binaryLayer({ ...opts, repo }, notes);
  if (binary) findings.push(...guarded('binary-reference', () => checkBinaryReference(head, label)));
  const c: Comparison = { repo, label, versionFile: `${label}/${versionSource(head.model)}`, binary };
  let plan: Promise<PackageRelease> | undefined;
  const pending = () => {
    plan ??= planFor(repo);
    return plan;
  };
  const tmp = mkdtempSync(join(tmpdir(), 'entropic-abi-base-'));
  try {
    let base: OpenedBase | null = null;
    if (choice) {
      notes.push(`base: ${choice.label}`);
      base = open(choice, join(tmp, 'base'), notes);
      if (base) {
        findings.push(...(await compare(c, base.side, head, choice, pending)));
        if (base.root)
          findings.push(...checkRecordHistory(readRecords(base.root, label), records, label, choice));
      }
    } else {
      notes.push(
        'base: none (a clean main, or no main to fork from); pass --base REF to compare with a commit',
      );
    }
    const release =
      opts.release === null ? null : chooseRelease(repo, opts.release ?? 'latest', label, records, notes);
    const released = release ? open(release, join(tmp, 'release'), notes) : null;
    if (release && released && base && sameSide(base.side, released.side)) {
      notes.push(`release: ${release.label}, the same ABI as the base; compared once`);
    } else if (release && released) {
      notes.push(`release: ${release.label}`);
      findings.push(...(await compare(c, released.side, head, release, pending)));
    }
    const step = opts.release === null ? null : releaseStep(head, records);
    if (step) {
      // The release itself (its changesets consumed) against the one before it: the version bump between them
      // is its release; changesets pending now are for the next one.
      const bump = async (): Promise<PackageRelease> => ({ type: 'none', changesets: [] });
      const before = { label: `release ${step.before.version} before it` };
      notes.push(`release ${step.last.version} checked against release ${step.before.version} before it`);
      for (const f of await compare(c, step.before, step.last, before, bump))
        findings.push({ ...f, message: `Release record ${step.last.where}: ${f.message}` });
    }
    if (!choice && !released) {
      if (opts.ci) findings.push(nothingToCompare(label));
      else notes.push('only the self-consistency rules ran (no base, no release); in CI (--ci) this fails');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { findings, notes };
}
