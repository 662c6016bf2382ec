// Reads, renders and refreshes abi.lock.json entries.
import type { AbiModel } from '../model/types.js';
import { fingerprintOf } from './fingerprint.js';
import { type LockedSubset, lockedSubset } from './subset.js';

/** One API version's entry: the locked subset and its fingerprint. */
export interface AbiLockEntry {
  fingerprint: string;
  locked: LockedSubset;
}

/** The content of `abi.lock.json`. */
export interface AbiLock {
  $comment?: string;
  lockFormat: 1;
  /** Entries keyed by API version (decimal string). */
  versions: Record<string, AbiLockEntry>;
}

export const LOCK_COMMENT =
  'Written by `entropic-abi lock`. One entry per plugin API version; see packages/abi-headers/README.md.';

/** The lock entry the model would produce for its API version. */
export function lockEntry(model: AbiModel): AbiLockEntry {
  const locked = lockedSubset(model);
  return { fingerprint: fingerprintOf(locked), locked };
}

/**
 * Renders the lock with the entry for the model's API version written (or refreshed); entries of
 * other versions are copied from `previous` unchanged. Versions are listed in numeric order.
 */
export function renderLock(model: AbiModel, previous?: AbiLock): string {
  const versions: Record<string, AbiLockEntry> = { ...(previous?.versions ?? {}) };
  versions[String(model.apiVersion)] = lockEntry(model);
  const ordered: Record<string, AbiLockEntry> = {};
  for (const key of Object.keys(versions).sort((a, b) => Number(a) - Number(b)))
    ordered[key] = versions[key]!;
  const lock: AbiLock = { $comment: LOCK_COMMENT, lockFormat: 1, versions: ordered };
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** Parses lock text, checking its shape; the error names what is wrong. */
export function parseLock(text: string, where = 'abi.lock.json'): AbiLock {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  const lock = data as Partial<AbiLock> | null;
  if (!lock || typeof lock !== 'object' || lock.lockFormat !== 1) {
    throw new Error(`${where}: expected an object with "lockFormat": 1`);
  }
  if (!lock.versions || typeof lock.versions !== 'object')
    throw new Error(`${where}: missing "versions" object`);
  for (const [version, entry] of Object.entries(lock.versions)) {
    if (!/^[1-9][0-9]*$/.test(version))
      throw new Error(`${where}: version key "${version}" is not a positive integer`);
    if (typeof entry?.fingerprint !== 'string' || !entry.fingerprint.startsWith('sha256:') || !entry.locked) {
      throw new Error(`${where}: version ${version} needs "fingerprint" ("sha256:...") and "locked"`);
    }
  }
  return lock as AbiLock;
}
