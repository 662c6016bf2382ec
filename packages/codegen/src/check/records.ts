// Release records: what each release of @entropic-mcp/abi-headers promised plugins (its lock and binary
// reference), kept in the repository under abi/releases/<version>/ so the gate finds the last release in
// any clone, tags or not. `entropic-abi record-release` writes them; nothing ever edits one.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintOf } from '../lock/fingerprint.js';
import { parseLock } from '../lock/lock-file.js';
import { CodegenError } from '../model/errors.js';
import { ABI_HEADERS_PACKAGE, compareVersions, RELEASE_VERSION } from './release.js';
import type { AbiSide } from './state.js';

/** The records folder inside the abi-headers package. */
export const RECORDS_DIR = join('abi', 'releases');
export const RECORD_FILE = 'release.json';
export const RECORD_LOCK = 'abi.lock.json';
export const RECORD_REFERENCE = 'entropic-mcp-plugin.abi';

/**
 * `release`: written when the version was released. `baseline`: written before the first release, for
 * the ABI as committed at that version (what every plugin so far was built against); never published.
 */
export type RecordKind = 'release' | 'baseline';

/** The content of a record's release.json. */
interface RecordManifest {
  $comment: string;
  package: string;
  version: string;
  kind: RecordKind;
  apiVersion: number;
  fingerprint: string;
}

const COMMENTS: Record<RecordKind, string> = {
  release:
    'Written by `entropic-abi record-release`: what this release of @entropic-mcp/abi-headers promised plugins. ' +
    'Never edit a record; see packages/codegen/README.md, "Release records".',
  baseline:
    'Written by `entropic-abi record-release --baseline` before the first release: the ABI as committed at this ' +
    'version, which plugins built so far use. Never published. Never edit a record.',
};

/** One readable record: the released side of a comparison. */
export interface ReleaseRecord extends AbiSide {
  version: string;
  kind: RecordKind;
  /** The record folder, repository-relative, for messages. */
  where: string;
}

export interface RecordSet {
  /** The readable records, lowest version first. */
  records: ReleaseRecord[];
  /** What is wrong with the unreadable or inconsistent ones, one sentence each. */
  problems: string[];
  /** The text of every file of every record folder, keyed `<version>/<file>` (for the history rule). */
  files: Map<string, string>;
}

/** How a record names itself in notes and messages. */
export function recordLabel(r: ReleaseRecord): string {
  return r.kind === 'baseline'
    ? `${ABI_HEADERS_PACKAGE} ${r.version}, the baseline recorded before the first release (never published; ${r.where})`
    : `release ${ABI_HEADERS_PACKAGE}@${r.version} (recorded in ${r.where})`;
}

function readRecord(folder: string, version: string, where: string): ReleaseRecord | string {
  const text = (name: string) => {
    const path = join(folder, name);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  };
  const manifestText = text(RECORD_FILE);
  if (manifestText === null) return `${where} has no ${RECORD_FILE}`;
  let m: Partial<RecordManifest>;
  try {
    m = JSON.parse(manifestText) as Partial<RecordManifest>;
  } catch (e) {
    return `${where}/${RECORD_FILE} is not valid JSON: ${(e as Error).message}`;
  }
  if (m.package !== ABI_HEADERS_PACKAGE)
    return `${where}/${RECORD_FILE}: "package" is not ${ABI_HEADERS_PACKAGE}`;
  if (m.version !== version) return `${where}/${RECORD_FILE}: "version" is ${m.version}, not ${version}`;
  if (m.kind !== 'release' && m.kind !== 'baseline')
    return `${where}/${RECORD_FILE}: "kind" must be "release" or "baseline"`;
  if (!Number.isInteger(m.apiVersion)) return `${where}/${RECORD_FILE}: "apiVersion" is not a whole number`;
  const lockText = text(RECORD_LOCK);
  if (lockText === null) return `${where} has no ${RECORD_LOCK}`;
  let lock: ReturnType<typeof parseLock>;
  try {
    lock = parseLock(lockText, `${where}/${RECORD_LOCK}`);
  } catch (e) {
    return (e as Error).message;
  }
  for (const [v, entry] of Object.entries(lock.versions)) {
    if (fingerprintOf(entry.locked) !== entry.fingerprint)
      return `${where}/${RECORD_LOCK}: the entry for API version ${v} does not hash to its fingerprint (edited by hand)`;
  }
  const entry = lock.versions[String(m.apiVersion)];
  if (!entry) return `${where}/${RECORD_LOCK} has no entry for its API version ${m.apiVersion}`;
  if (entry.fingerprint !== m.fingerprint)
    return `${where}: ${RECORD_FILE} says ${m.fingerprint} but the lock's API version ${m.apiVersion} entry is ${entry.fingerprint}`;
  const reference = text(RECORD_REFERENCE);
  if (reference === null) return `${where} has no ${RECORD_REFERENCE}`;
  return {
    version,
    kind: m.kind,
    where,
    apiVersion: m.apiVersion!,
    locked: entry.locked,
    lock,
    packageVersion: version,
    reference,
  };
}

/** Reads every record under `<pkgRoot>/abi/releases/`; `label` is the package folder as the developer knows it. */
export function readRecords(pkgRoot: string, label: string): RecordSet {
  const dir = join(pkgRoot, RECORDS_DIR);
  const set: RecordSet = { records: [], problems: [], files: new Map() };
  if (!existsSync(dir)) return set;
  for (const name of readdirSync(dir).sort()) {
    const folder = join(dir, name);
    const where = `${label}/${RECORDS_DIR}/${name}`;
    if (!statSync(folder).isDirectory()) {
      set.problems.push(`${where} is not a record folder (expected ${RECORDS_DIR}/X.Y.Z/)`);
      continue;
    }
    for (const file of readdirSync(folder))
      set.files.set(`${name}/${file}`, readFileSync(join(folder, file), 'utf8'));
    if (!RELEASE_VERSION.test(name)) {
      set.problems.push(`${where}: a record folder is named after a release version X.Y.Z`);
      continue;
    }
    const record = readRecord(folder, name, where);
    if (typeof record === 'string') set.problems.push(record);
    else set.records.push(record);
  }
  set.records.sort((a, b) => compareVersions(a.version, b.version));
  return set;
}

export interface RecordInput {
  version: string;
  kind: RecordKind;
  apiVersion: number;
  fingerprint: string;
  /** abi.lock.json as it is at the release. */
  lockText: string;
  /** The binary reference as it is at the release. */
  referenceText: string;
}

/** A record refused: one already there differs, or a later version is recorded. */
export class RecordError extends CodegenError<'ABI_RECORD_REFUSED'> {
  override readonly name = 'RecordError';
  constructor(message: string) {
    super('ABI_RECORD_REFUSED', message);
  }
}

/** The files of a record folder. */
export function renderRecord(input: RecordInput): Record<string, string> {
  const manifest: RecordManifest = {
    $comment: COMMENTS[input.kind],
    package: ABI_HEADERS_PACKAGE,
    version: input.version,
    kind: input.kind,
    apiVersion: input.apiVersion,
    fingerprint: input.fingerprint,
  };
  return {
    [RECORD_FILE]: `${JSON.stringify(manifest, null, 2)}\n`,
    [RECORD_LOCK]: input.lockText,
    [RECORD_REFERENCE]: input.referenceText,
  };
}

/**
 * Writes the record of `input.version` under `pkgRoot`. A record is permanent: the same record again is
 * `unchanged`; a different one for that version, or any record of a later version, is a RecordError.
 */
export function writeRecord(pkgRoot: string, input: RecordInput): { folder: string; written: boolean } {
  const root = join(pkgRoot, RECORDS_DIR);
  const folder = join(root, input.version);
  const files = renderRecord(input);
  const later = existsSync(root)
    ? readdirSync(root).filter((v) => RELEASE_VERSION.test(v) && compareVersions(v, input.version) > 0)
    : [];
  if (later.length > 0)
    throw new RecordError(
      `${ABI_HEADERS_PACKAGE} ${later.join(', ')} is already recorded in ${root}; versions only go up ` +
        `(the package is at ${input.version}).`,
    );
  if (existsSync(folder)) {
    // The same promise again: the same lock, reference, API version and fingerprint (a baseline stays one).
    const differs = Object.entries(files).filter(([name, text]) => {
      const path = join(folder, name);
      if (!existsSync(path)) return true;
      const now = readFileSync(path, 'utf8');
      if (name !== RECORD_FILE) return now !== text;
      try {
        const m = JSON.parse(now) as Partial<RecordManifest>;
        return m.apiVersion !== input.apiVersion || m.fingerprint !== input.fingerprint;
      } catch {
        return true;
      }
    });
    if (differs.length === 0) return { folder, written: false };
    throw new RecordError(
      `${folder} already records ${ABI_HEADERS_PACKAGE} ${input.version} and differs in ` +
        `${differs.map(([name]) => name).join(', ')}. A release record is permanent: once a version is released ` +
        'its ABI cannot change. Raise the version (a changeset, then `changeset version`) and record that one.',
    );
  }
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return { folder, written: true };
}
