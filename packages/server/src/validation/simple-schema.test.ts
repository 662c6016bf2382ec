// Property tests of the simple schema validator against ajv.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSimple } from '../core/simple-schema.js';
import { ajvValidatorFactory } from './ajv.js';

const key = fc.constantFrom('a', 'b', 'c', 'a/b', 'é');
const scalar = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('', 'x', 'xy', '🎉🎉', 'abc'),
  fc.boolean(),
  fc.constant(null),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
}));

const typeName = fc.constantFrom('object', 'array', 'string', 'number', 'integer', 'boolean', 'null');
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record(
      {
        type: fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 2 })),
        minimum: fc.integer({ min: -3, max: 3 }),
        exclusiveMaximum: fc.integer({ min: -3, max: 3 }),
        minLength: fc.nat(3),
        maxLength: fc.nat(3),
        enum: fc.array(scalar, { minLength: 1, maxLength: 3 }),
        const: scalar,
        description: fc.string(),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(key, tie('schema'), { maxKeys: 3 }),
        required: fc.uniqueArray(key, { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('array'),
        items: tie('schema').filter((x) => typeof x !== 'boolean'),
        minItems: fc.nat(2),
        maxItems: fc.nat(3),
      },
      { requiredKeys: [] },
    ),
    fc.boolean(),
  ),
}));

describe('the simple-subset validator', () => {
  it('agrees with ajv on every schema of the subset and every value', () => {
    fc.assert(
      fc.property(schema, fc.array(value, { minLength: 1, maxLength: 5 }), (s, values) => {
        const simple = compileSimple(s);
        expect(simple).toBeDefined();
        const reference = ajvValidatorFactory(typeof s === 'boolean' ? (s ? {} : { not: {} }) : s);
        for (const v of values) {
          expect(simple?.(v) === undefined, JSON.stringify({ s, v })).toBe(reference(v) === undefined);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('names the same JSON pointer and words the message as ajv for the common failures', () => {
    const s = {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['n'],
      additionalProperties: false,
    };
    const simple = compileSimple(s);
    const reference = ajvValidatorFactory(s);
    for (const v of [{}, { n: -1 }, { n: 1.5 }, { n: 1, tags: ['a', 2] }, { n: 1, extra: 1 }, 'str']) {
      expect(simple?.(v), JSON.stringify(v)).toEqual(reference(v));
    }
  });

  it('declines schemas outside the subset so the full validator handles them', () => {
    for (const s of [
      { $ref: '#/$defs/x' },
      { type: 'string', format: 'email' },
      { allOf: [{ type: 'string' }] },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'array', items: false },
      { type: 'number', exclusiveMinimum: true },
      { type: 'nonsense' },
      { required: 'a' },
      { type: 'object', properties: { a: { pattern: '^x' } } },
    ]) {
      expect(compileSimple(s), JSON.stringify(s)).toBeUndefined();
    }
  });
});
