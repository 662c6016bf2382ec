// Tests of semver bump classification used by the ABI release check.
import { describe, expect, it } from 'vitest';
import { atLeast, versionBump } from './release.js';

describe('versionBump', () => {
  it('classifies semver increases', () => {
    expect(versionBump('0.1.0', '1.0.0')).toBe('major');
    expect(versionBump('1.2.3', '1.3.0')).toBe('minor');
    expect(versionBump('1.2.3', '1.2.4')).toBe('patch');
    expect(versionBump('1.2.3', '1.2.3')).toBe('none');
    expect(versionBump('2.0.0', '1.9.0')).toBe('none');
  });
  it('orders bump types', () => {
    expect(atLeast('major', 'minor')).toBe(true);
    expect(atLeast('patch', 'minor')).toBe(false);
  });
});
