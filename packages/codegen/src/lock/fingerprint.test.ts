// Tests of canonical JSON and the ABI fingerprint.
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintOf } from './fingerprint.js';
import type { LockedSubset } from './subset.js';

describe('canonicalJson', () => {
  it('sorts keys at every level, keeps array order and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, b: 'x' }, 3] })).toBe(
      '{"a":[{"b":"x","d":2},3],"b":1}',
    );
  });
});

describe('fingerprintOf', () => {
  const subset: LockedSubset = { handles: [], functions: [], structs: [], enums: [], defines: [] };
  it('is sha256 hex and independent of key order', () => {
    const reordered = { defines: [], enums: [], structs: [], functions: [], handles: [] };
    expect(fingerprintOf(subset)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(fingerprintOf(reordered)).toBe(fingerprintOf(subset));
  });
  it('changes when content changes', () => {
    expect(fingerprintOf({ ...subset, defines: [{ name: 'X', value: 1 }] })).not.toBe(fingerprintOf(subset));
  });
});
