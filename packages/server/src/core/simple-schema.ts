/**
 * A direct validator for the small part of JSON Schema most tool schemas use (type, properties,
 * required, additionalProperties, items, enum, const, numeric and length bounds, annotations). A
 * schema that uses anything else is left to the full validator (ajv), so this never guesses: it
 * returns undefined for any keyword or shape it does not know. Messages follow ajv's wording.
 */

import type { SchemaIssue, Validator } from './schema-issue.js';

/** Checks one value; an issue's pointer is relative to that value (parents prefix their segment). */
type Check = (value: unknown) => SchemaIssue | undefined;

const ANNOTATIONS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeOf(value) === type;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && equal((a as never)[k], (b as never)[k]));
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function within(segment: string, issue: SchemaIssue): SchemaIssue {
  return { pointer: segment + issue.pointer, message: issue.message };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Build the checks of one (sub)schema, or undefined if it leaves the subset. */
function build(schema: unknown): Check | undefined {
  if (schema === true) return () => undefined;
  if (schema === false) return () => ({ pointer: '', message: 'boolean schema is false' });
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Record<string, unknown>;
  const checks: Check[] = [];
  for (const key of Object.keys(s)) if (!KNOWN.has(key) && !ANNOTATIONS.has(key)) return undefined;

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) return undefined;
    const label = types.join(',');
    checks.push((v) =>
      types.some((t) => hasType(v, t as string)) ? undefined : { pointer: '', message: `must be ${label}` },
    );
  }
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum) || s.enum.length === 0) return undefined;
    const options = s.enum;
    checks.push((v) =>
      options.some((o) => equal(o, v))
        ? undefined
        : { pointer: '', message: 'must be equal to one of the allowed values' },
    );
  }
  if ('const' in s) {
    const expected = s.const;
    checks.push((v) =>
      equal(expected, v) ? undefined : { pointer: '', message: 'must be equal to constant' },
    );
  }
  for (const [key, op, fails] of [
    ['minimum', '>=', (v: number, l: number) => v < l],
    ['maximum', '<=', (v: number, l: number) => v > l],
    ['exclusiveMinimum', '>', (v: number, l: number) => v <= l],
    ['exclusiveMaximum', '<', (v: number, l: number) => v >= l],
  ] as const) {
    if (s[key] === undefined) continue;
    const limit = s[key];
    if (!isNum(limit)) return undefined;
    checks.push((v) =>
      typeof v === 'number' && fails(v, limit)
        ? { pointer: '', message: `must be ${op} ${limit}` }
        : undefined,
    );
  }
  for (const [key, kind, word, tooMany] of [
    ['minLength', 'string', 'fewer', false],
    ['maxLength', 'string', 'more', true],
    ['minItems', 'array', 'fewer', false],
    ['maxItems', 'array', 'more', true],
  ] as const) {
    if (s[key] === undefined) continue;
    const limit = s[key];
    if (!isCount(limit)) return undefined;
    const unit = kind === 'string' ? 'characters' : 'items';
    checks.push((v) => {
      if (typeOf(v) !== kind) return undefined;
      // JSON Schema counts string length in code points, not UTF-16 units.
      const length = kind === 'string' ? [...(v as string)].length : (v as unknown[]).length;
      const bad = tooMany ? length > limit : length < limit;
      return bad ? { pointer: '', message: `must NOT have ${word} than ${limit} ${unit}` } : undefined;
    });
  }
  if (s.required !== undefined) {
    if (!Array.isArray(s.required) || !s.required.every((r) => typeof r === 'string')) return undefined;
    const required = s.required as string[];
    checks.push((v) => {
      if (typeOf(v) !== 'object') return undefined;
      for (const name of required) {
        if (!Object.hasOwn(v as object, name)) {
          return {
            pointer: `/${escapePointer(name)}`,
            message: `must have required property '${name}'`,
          };
        }
      }
      return undefined;
    });
  }
  const props = new Map<string, Check>();
  if (s.properties !== undefined) {
    if (typeof s.properties !== 'object' || s.properties === null || Array.isArray(s.properties))
      return undefined;
    for (const [name, sub] of Object.entries(s.properties)) {
      const check = build(sub);
      if (check === undefined) return undefined;
      props.set(name, check);
    }
  }
  let extra: Check | undefined;
  if (s.additionalProperties !== undefined) {
    extra = build(s.additionalProperties);
    if (extra === undefined) return undefined;
  }
  if (props.size > 0 || extra !== undefined) {
    const additional = s.additionalProperties;
    checks.push((v) => {
      if (typeOf(v) !== 'object') return undefined;
      for (const key of Object.keys(v as object)) {
        const child = (v as Record<string, unknown>)[key];
        const check = props.get(key);
        if (check !== undefined) {
          const issue = check(child);
          if (issue) return within(`/${escapePointer(key)}`, issue);
        } else if (additional === false) {
          return { pointer: `/${escapePointer(key)}`, message: 'must NOT have additional properties' };
        } else if (extra !== undefined) {
          const issue = extra(child);
          if (issue) return within(`/${escapePointer(key)}`, issue);
        }
      }
      return undefined;
    });
  }
  if (s.items !== undefined) {
    const item = build(s.items);
    if (item === undefined || typeof s.items === 'boolean') return undefined;
    checks.push((v) => {
      if (!Array.isArray(v)) return undefined;
      for (let i = 0; i < v.length; i++) {
        const issue = item(v[i]);
        if (issue) return within(`/${i}`, issue);
      }
      return undefined;
    });
  }
  if (checks.length === 1) return checks[0];
  return (value) => {
    for (const check of checks) {
      const issue = check(value);
      if (issue) return issue;
    }
    return undefined;
  };
}

/** A validator for `schema` when it stays inside the subset; undefined otherwise. */
export function compileSimple(schema: unknown): Validator | undefined {
  const check = build(schema);
  return check;
}
