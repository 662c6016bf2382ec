// Canonical JSON and the sha256 fingerprint of the locked ABI subset.
import { createHash } from 'node:crypto';
import type { AbiModel } from '../model/types.js';
import { type LockedSubset, lockedSubset } from './subset.js';

/** JSON with object keys sorted at every level and no whitespace; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `sha256:<hex>` of the canonical serialisation of a locked subset. */
export function fingerprintOf(subset: LockedSubset): string {
  return `sha256:${createHash('sha256').update(canonicalJson(subset)).digest('hex')}`;
}

/** `sha256:<hex>` of the model's locked subset. */
export function fingerprint(model: AbiModel): string {
  return fingerprintOf(lockedSubset(model));
}
