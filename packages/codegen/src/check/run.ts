// Runs every gate rule over a work tree (and, when there is one, a base ref) and collects findings.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { abigailAvailable } from '../abigail/tools.js';
import { type BaseSource, CheckUsageError, chooseBase, chooseRelease } from './bases.js';
import { checkBinaryAgainstBase, checkBinaryReference } from './binary.js';
import { checkGeneratedFiles } from './fresh.js';
import { checkLockCurrent, checkLockHistory, checkLockIntegrity } from './lock-rules.js';
import { type PackageRelease, planFor } from './release.js';
import { type AbiState, DEFINITIONS_DIR, lockOk, readState } from './state.js';
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
  /** Also compare with a released ABI: `latest` (the highest release tag), a tag, or a packed `.tgz`. */
  release?: string;
}

export { CheckUsageError };

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

async function compareWithBase(
  opts: CheckOptions,
  head: AbiState,
  label: string,
  source: BaseSource,
  binary: boolean,
  notes: string[],
): Promise<Finding[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'entropic-abi-base-'));
  try {
    const baseRoot = source.extract(tmp);
    if (!existsSync(join(baseRoot, DEFINITIONS_DIR))) {
      notes.push(`base ${source.label} has no ABI definitions; nothing to compare with`);
      return [];
    }
    let base: AbiState;
    try {
      base = readState(baseRoot);
    } catch (e) {
      notes.push(
        `base ${source.label}: its definitions do not read (${(e as Error).message}); comparison skipped`,
      );
      return [];
    }
    let plan: Promise<PackageRelease> | undefined;
    const release = () => {
      plan ??= planFor(opts.repo);
      return plan;
    };
    const findings = await checkVersioning({ base, head, baseLabel: source.label, label, release });
    if (lockOk(base.lock) && lockOk(head.lock))
      findings.push(...checkLockHistory(base.lock, head.lock, head.model, label, source));
    if (binary)
      findings.push(...guarded('binary-not-bumped', () => checkBinaryAgainstBase(base, head, source.label)));
    return findings;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
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
  const findings: Finding[] = [
    ...checkGeneratedFiles(head.model, abiRoot, label),
    ...checkLockCurrent(head, label),
    ...(lockOk(head.lock) ? checkLockIntegrity(head.lock, label) : []),
  ];
  const binary = binaryLayer({ ...opts, repo }, notes);
  if (binary) findings.push(...guarded('binary-reference', () => checkBinaryReference(head, label)));
  if (choice) {
    notes.push(`base: ${choice.label}`);
    findings.push(...(await compareWithBase({ ...opts, repo }, head, label, choice, binary, notes)));
  } else {
    notes.push(
      'base: none (a clean main, or no main to fork from); pass --base REF to compare with a commit',
    );
  }
  const released = opts.release === undefined ? null : chooseRelease(repo, opts.release, label, notes);
  if (released && released.commit !== undefined && released.commit === choice?.commit) {
    notes.push(`release: ${released.label} is the base above; compared once`);
  } else if (released) {
    notes.push(`release: ${released.label}`);
    findings.push(...(await compareWithBase({ ...opts, repo }, head, label, released, binary, notes)));
  }
  if (!choice && !released) notes.push('only the self-consistency rules ran (no base, no release)');
  return { findings, notes };
}
