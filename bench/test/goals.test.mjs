// The bench's round-by-round ratios: each round of one target against the same round of another.
import { describe, expect, it } from 'vitest';
import { pairedText } from '../src/goals.mjs';

describe('pairedText', () => {
  it('divides round by round and reports the median beside every ratio', () => {
    expect(pairedText({ runs: [10, 30, 20] }, { runs: [20, 20, 20] })).toBe(
      'median 1.00× of 0.50, 1.50, 1.00',
    );
    expect(pairedText({ runs: [1, 3, 2, 4] }, { runs: [1, 1, 1, 1] })).toBe(
      'median 2.50× of 1.00, 3.00, 2.00, 4.00',
    );
  });
  it('says so when a row has no rounds', () => {
    expect(pairedText({ runs: [] }, { runs: [1] })).toBe('n/a');
  });
});
