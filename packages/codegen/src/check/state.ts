// Everything the gate compares, read from one abi-headers package folder (the work tree or a base ref).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_FILE } from '../abigail/reference.js';
import { type AbiLock, parseLock } from '../lock/lock-file.js';
import { type LockedSubset, lockedSubset } from '../lock/subset.js';
import { readAbiModel } from '../model/read-model.js';
import type { AbiModel } from '../model/types.js';

/**
 * What one side of a comparison promises: the work tree, a base commit, a packed release or a release
 * record (which keeps the lock and the binary reference, not the definitions).
 */
export interface AbiSide {
  /** The API version (ENTROPIC_MCP_PLUGIN_API_VERSION) of that side. */
  apiVersion: number;
  /** The locked subset of that API version. */
  locked: LockedSubset;
  /** The parsed lock, or the reason it could not be read. */
  lock: AbiLock | { error: string };
  /** `version` of the abi-headers package.json (or of the release record). */
  packageVersion: string | null;
  /** The binary ABI reference, when present. */
  reference: string | null;
}

/** A side read from a package folder's definitions (the work tree, a base commit, a tarball). */
export interface AbiState extends AbiSide {
  /** The abi-headers package folder. */
  root: string;
  model: AbiModel;
}

export const DEFINITIONS_DIR = join('src', 'abi');
export const LOCK_FILE = 'abi.lock.json';

function readIf(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function readLock(root: string): AbiLock | { error: string } {
  const text = readIf(join(root, LOCK_FILE));
  if (text === null) return { error: `${LOCK_FILE} does not exist` };
  try {
    return parseLock(text, LOCK_FILE);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Reads the model (throws the reader's error when the definitions are invalid) and the files beside it. */
export function readState(root: string): AbiState {
  const model = readAbiModel({ definitionsDir: join(root, DEFINITIONS_DIR) });
  const pkg = readIf(join(root, 'package.json'));
  let packageVersion: string | null = null;
  if (pkg) packageVersion = (JSON.parse(pkg) as { version?: string }).version ?? null;
  return {
    root,
    model,
    apiVersion: model.apiVersion,
    locked: lockedSubset(model),
    lock: readLock(root),
    packageVersion,
    reference: readIf(join(root, REFERENCE_FILE)),
  };
}

export function lockOk(lock: AbiSide['lock']): lock is AbiLock {
  return !('error' in lock);
}

/** The definition file that holds the version macro, for messages. */
export function versionSource(model: AbiModel): string {
  const h = model.headers.find((x) =>
    x.items.some((i) => i.kind === 'define' && i.name === model.versionMacro),
  );
  return h ? `${DEFINITIONS_DIR}/${h.source}` : DEFINITIONS_DIR;
}
