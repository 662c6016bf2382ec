// The last released ABI: which release the work tree is compared with (the last release record, else the
// highest release tag, or what --release names) and the rules on the records themselves.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import {
  type BaseSource,
  fromReleaseRef,
  fromSide,
  fromTarball,
  latestReleaseTag,
  RELEASE_TAG_PREFIX,
} from './bases.js';
import { RECORDS_DIR, type RecordSet, type ReleaseRecord, recordLabel } from './records.js';
import { ABI_HEADERS_PACKAGE, compareVersions, RELEASE_VERSION } from './release.js';
import type { AbiSide } from './state.js';
import type { Finding } from './types.js';

/** The command that writes a release record, named in messages. */
export const RECORD_COMMAND = 'pnpm exec entropic-abi record-release';

/**
 * The released ABI to compare with. `latest`: the last release record, else the highest release tag, else
 * none (null, with a note). A version X.Y.Z: its record. A `.tgz` path: that packed abi-headers. Anything
 * else: a tag or commit.
 */
export function chooseRelease(
  repo: string,
  release: string,
  pkg: string,
  records: RecordSet,
  notes: string[],
): BaseSource | null {
  if (/\.(tgz|tar\.gz)$/.test(release)) {
    const file = resolve(repo, release);
    if (!existsSync(file)) throw new UsageError(`--release ${release}: no such tarball`);
    return fromTarball(file);
  }
  if (RELEASE_VERSION.test(release)) {
    const record = records.records.find((r) => r.version === release);
    if (!record)
      throw new UsageError(`--release ${release}: no release record ${pkg}/${RECORDS_DIR}/${release}`);
    return fromSide(recordLabel(record), record);
  }
  if (release !== 'latest') return fromReleaseRef(repo, release, pkg, release);
  const last = records.records.at(-1);
  if (last) return fromSide(recordLabel(last), last);
  const tag = latestReleaseTag(repo);
  if (tag) return fromReleaseRef(repo, tag, pkg, release);
  notes.push(
    `release: none recorded (no ${pkg}/${RECORDS_DIR}/X.Y.Z/) and no ${RELEASE_TAG_PREFIX}X.Y.Z tag in this ` +
      'clone; not compared with a released ABI',
  );
  return null;
}

/**
 * Rules on the records of the work tree: each readable and consistent, and the last one is the package's
 * own version (a version above it was released, or is being released, without its record).
 */
export function checkRecords(head: AbiSide, records: RecordSet, pkg: string): Finding[] {
  const findings: Finding[] = records.problems.map((p) => ({
    rule: 'release-records' as const,
    message: `${p}. Release records are written by \`${RECORD_COMMAND}\` and never edited; restore it from git.`,
  }));
  const last = records.records.at(-1);
  const version = head.packageVersion;
  if (!last || !version) return findings;
  const order = compareVersions(version, last.version);
  if (order > 0) {
    findings.push({
      rule: 'release-not-recorded',
      message:
        `${pkg}/package.json is at ${ABI_HEADERS_PACKAGE} ${version} but the last release record is ${last.version} ` +
        `(${last.where}). A version is recorded when it is cut: run \`${RECORD_COMMAND}\` after ` +
        '`changeset version` and commit the new record with the release.',
    });
  } else if (order < 0) {
    findings.push({
      rule: 'release-records',
      message:
        `${pkg}/package.json is at ${ABI_HEADERS_PACKAGE} ${version}, below the last release record ` +
        `${last.version} (${last.where}). Versions only go up: restore the package version.`,
    });
  }
  return findings;
}

/**
 * When the work tree is at the version of its last record (the release commit, and every commit after it
 * until the next release), that record and the one before it: the release is checked against the one
 * before it, with the version bump between them as its release.
 */
export function releaseStep(
  head: AbiSide,
  records: RecordSet,
): { before: ReleaseRecord; last: ReleaseRecord } | null {
  const last = records.records.at(-1);
  const before = records.records.at(-2);
  if (!last || !before || head.packageVersion !== last.version) return null;
  return { before, last };
}

/** Records present at the base are present and byte-for-byte the same in the work tree. */
export function checkRecordHistory(
  base: RecordSet,
  head: RecordSet,
  pkg: string,
  source: { label: string; commit?: string },
): Finding[] {
  const changed = new Map<string, string[]>();
  for (const [key, text] of base.files) {
    const [version, file] = key.split('/') as [string, string];
    const now = head.files.get(key);
    if (now === text) continue;
    const list = changed.get(version) ?? [];
    list.push(`${file} ${now === undefined ? 'removed' : 'altered'}`);
    changed.set(version, list);
  }
  return [...changed].map(([version, what]) => {
    const folder = `${pkg}/${RECORDS_DIR}/${version}`;
    const restore = source.commit
      ? `\`git checkout ${source.commit.slice(0, 10)} -- ${folder}\``
      : `from ${source.label}`;
    return {
      rule: 'release-records' as const,
      message:
        `The release record ${folder} changed since ${source.label}: ${what.join(', ')}. A record says what a ` +
        `release promised plugins and is never edited or removed; restore it (${restore}).`,
    };
  });
}

/** True when two sides promise the same thing (then the release is not compared a second time). */
export function sameSide(a: AbiSide, b: AbiSide): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.packageVersion === b.packageVersion &&
    a.reference === b.reference &&
    JSON.stringify(a.lock) === JSON.stringify(b.lock)
  );
}
