// Tests of the JSON depth and element limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonLimits } from './json-limits.js';

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('checkJsonLimits', () => {
  it('accepts exactly the values within maxJsonDepth', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 8 }), (value, max) => {
        const verdict = checkJsonLimits(value, { maxJsonDepth: max, maxJsonElements: 1e9 });
        expect(verdict === undefined).toBe(depthOf(value) <= max);
      }),
    );
  });

  it('counts elements across objects and arrays', () => {
    expect(checkJsonLimits({ a: [1, 2, 3] }, { maxJsonDepth: 10, maxJsonElements: 4 })).toBeUndefined();
    expect(checkJsonLimits({ a: [1, 2, 3], b: 1 }, { maxJsonDepth: 10, maxJsonElements: 4 })).toMatch(
      /maxJsonElements/,
    );
  });

  it('handles nesting far deeper than the call stack allows', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(checkJsonLimits(deep, { maxJsonDepth: 64, maxJsonElements: 1e9 })).toMatch(/maxJsonDepth \(64\)/);
  });
});

describe('checkJsonLimits with a very deep cap', () => {
  it('walks with an explicit stack and gives the same verdicts', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const deep = checkJsonLimits(value, { maxJsonDepth: 5000, maxJsonElements: 1e9 });
        expect(deep).toBeUndefined();
        const few = checkJsonLimits(value, { maxJsonDepth: 5000, maxJsonElements: 3 });
        const fewShallow = checkJsonLimits(value, { maxJsonDepth: 64, maxJsonElements: 3 });
        expect(few === undefined).toBe(fewShallow === undefined);
      }),
    );
    let deep: unknown = 1;
    for (let i = 0; i < 6000; i++) deep = [deep];
    expect(checkJsonLimits(deep, { maxJsonDepth: 5000, maxJsonElements: 1e9 })).toMatch(
      /maxJsonDepth \(5000\)/,
    );
  });
});
