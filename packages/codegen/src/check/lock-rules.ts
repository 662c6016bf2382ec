// Rules on abi.lock.json: it is current, internally consistent, and older versions never change.
import { fingerprintOf } from '../lock/fingerprint.js';
import { type AbiLock, lockEntry } from '../lock/lock-file.js';
import { describeChanges } from './changes.js';
import { type AbiState, LOCK_FILE, lockOk } from './state.js';
import { type Finding, LOCK_COMMAND } from './types.js';

/** The lock has an entry for the current API version, and its fingerprint is the model's. */
export function checkLockCurrent(state: AbiState, label: string): Finding[] {
  const file = `${label}/${LOCK_FILE}`;
  if (!lockOk(state.lock)) {
    return [
      {
        rule: 'lock-stale',
        message: `${file} cannot be used: ${state.lock.error}. Run \`${LOCK_COMMAND}\`.`,
      },
    ];
  }
  const v = state.model.apiVersion;
  const entry = state.lock.versions[String(v)];
  const want = lockEntry(state.model);
  if (!entry) {
    return [
      {
        rule: 'lock-stale',
        message: `${file} has no entry for API version ${v} (${state.model.versionMacro}). Run \`${LOCK_COMMAND}\` to record it.`,
      },
    ];
  }
  if (entry.fingerprint === want.fingerprint) return [];
  const changes = describeChanges(entry.locked, want.locked);
  return [
    {
      rule: 'lock-stale',
      message:
        `${file} is stale: its API version ${v} fingerprint is ${entry.fingerprint} but the definitions give ` +
        `${want.fingerprint}.\n  The definitions differ from the lock in:\n${changes.lines.join('\n') || '  (only in the recorded fingerprint)'}\n` +
        `Run \`${LOCK_COMMAND}\` once the versioning is right: a breaking change needs a new API version and a major changeset, not a refreshed entry.`,
    },
  ];
}

/** Every entry's fingerprint is the fingerprint of its own locked subset (catches hand edits). */
export function checkLockIntegrity(lock: AbiLock, label: string): Finding[] {
  const findings: Finding[] = [];
  for (const [v, entry] of Object.entries(lock.versions)) {
    const actual = fingerprintOf(entry.locked);
    if (actual === entry.fingerprint) continue;
    findings.push({
      rule: 'lock-integrity',
      message: `${label}/${LOCK_FILE}: the entry for API version ${v} records fingerprint ${entry.fingerprint} but its locked subset hashes to ${actual}; the entry was edited by hand. Restore it from git history.`,
    });
  }
  return findings;
}

/** Entries of API versions before the current one are exactly as they were at the base. */
export function checkLockHistory(
  base: AbiLock,
  head: AbiLock,
  currentApiVersion: number,
  label: string,
  source: { label: string; commit?: string },
): Finding[] {
  const from = source.commit
    ? `\`git checkout ${source.commit.slice(0, 10)} -- ${label}/${LOCK_FILE}\``
    : `from ${source.label}`;
  const restore = `restore it (${from}), then run \`${LOCK_COMMAND}\``;
  const findings: Finding[] = [];
  for (const [v, old] of Object.entries(base.versions)) {
    if (Number(v) >= currentApiVersion) continue;
    const now = head.versions[v];
    const file = `${label}/${LOCK_FILE}`;
    if (!now) {
      findings.push({
        rule: 'lock-history',
        message: `${file}: the entry for earlier API version ${v} was removed. Entries of earlier versions are permanent; ${restore}.`,
      });
      continue;
    }
    if (now.fingerprint === old.fingerprint && JSON.stringify(now.locked) === JSON.stringify(old.locked))
      continue;
    const changes = describeChanges(old.locked, now.locked);
    findings.push({
      rule: 'lock-history',
      message:
        `${file}: the entry for earlier API version ${v} was altered (fingerprint ${old.fingerprint} → ${now.fingerprint}).\n` +
        `${changes.lines.join('\n') || '  (the fingerprint text changed)'}\n` +
        `Entries of earlier versions describe plugins already built against them; ${restore}.`,
    });
  }
  return findings;
}
