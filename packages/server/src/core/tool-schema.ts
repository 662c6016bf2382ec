/**
 * A tool's inputSchema/outputSchema at run time: plain JSON Schema, or a Standard Schema with the
 * JSON Schema extension, whose own converter gives the wire form and whose own validator checks.
 */

import { LocalError } from './errors.js';
import type { JsonSchema } from './types.js';
import { compileSchema, type SchemaIssue } from './validator.js';

/** A value the schema accepted, possibly transformed by it (Standard Schema output). */
export class Accepted {
  constructor(readonly value: unknown) {}
}

/** undefined: accepted as it is; Accepted: use its value; SchemaIssue: refused. */
export type Verdict = SchemaIssue | Accepted | undefined;
export type Check = (value: unknown) => Verdict | Promise<Verdict>;

export interface CompiledToolSchema {
  /** The JSON Schema shown on the wire. */
  wire: JsonSchema;
  check: Check;
}

interface StandardProps {
  version?: unknown;
  vendor?: unknown;
  validate?: unknown;
  jsonSchema?: { input?: unknown; output?: unknown };
}

/** What to do, by vendor, when a library's schema lacks the JSON Schema extension. */
const CONVERTERS: Readonly<Record<string, string>> = {
  valibot: 'wrap it in toStandardJsonSchema() from @valibot/to-json-schema',
  zod: 'zod 4 provides it (import * as z from "zod" with zod 4 installed)',
};

type StandardIssue = { message?: unknown; path?: readonly unknown[] };
type StandardResult = { value?: unknown; issues?: readonly StandardIssue[] };

/** Compile `schema` (named `what` in errors); `side` picks the converter's input or output form. */
export function compileToolSchema(
  schema: unknown,
  what: string,
  side: 'input' | 'output',
): CompiledToolSchema {
  if ((typeof schema === 'object' || typeof schema === 'function') && schema !== null) {
    if ('~standard' in schema) return compileStandard(schema['~standard'] as StandardProps, what, side);
  }
  if (!isPlainObject(schema)) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} must be a JSON Schema (a plain object) or a Standard Schema with JSON Schema support ` +
        `(zod 4, valibot with @valibot/to-json-schema, arktype); got ${describe(schema)}`,
    );
  }
  const field = Object.keys(schema).find((key) => isSchemaObject(schema[key]));
  if (field !== undefined) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} has a non-JSON value (a function or a schema object) at "${field}": pass one ` +
        'object schema (for example z.object({...})) rather than a record of field schemas',
    );
  }
  return { wire: schema, check: compileSchema(schema, what) };
}

/** `compileToolSchema` of a schema a definition may leave out (then there is nothing to compile). */
export function compileOptionalSchema(
  schema: unknown,
  what: string,
  side: 'input' | 'output',
): CompiledToolSchema | undefined {
  return schema === undefined ? undefined : compileToolSchema(schema, what, side);
}

/** A library schema object (or any function) where only JSON data belongs. */
function isSchemaObject(value: unknown): boolean {
  if (typeof value === 'function') return true;
  return typeof value === 'object' && value !== null && ('~standard' in value || '_def' in value);
}

function compileStandard(props: StandardProps, what: string, side: 'input' | 'output'): CompiledToolSchema {
  const vendor = typeof props?.vendor === 'string' ? props.vendor : 'an unknown library';
  if (props?.version !== 1 || typeof props.validate !== 'function') {
    throw new LocalError('INVALID_SCHEMA', `${what} is not a Standard Schema v1 (from ${vendor})`);
  }
  const convert = props.jsonSchema?.[side];
  if (typeof convert !== 'function') {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} is a Standard Schema from ${vendor} without the JSON Schema extension ` +
        `(~standard.jsonSchema); ${CONVERTERS[vendor] ?? 'use a version of the library that provides it, or pass JSON Schema'}`,
    );
  }
  let wire: unknown;
  try {
    wire = convert({ target: 'draft-2020-12' });
  } catch (error) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} (${vendor}) cannot be converted to JSON Schema: ${(error as Error).message}`,
    );
  }
  if (!isPlainObject(wire)) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} (${vendor}) converted to ${describe(wire)}, not an object`,
    );
  }
  const validate = props.validate as (value: unknown) => StandardResult | Promise<StandardResult>;
  return {
    wire,
    check(value) {
      const result = validate(value);
      return result instanceof Promise ? result.then(verdictOf) : verdictOf(result);
    },
  };
}

function verdictOf(result: StandardResult): Verdict {
  const issues = result.issues;
  if (issues === undefined || issues === null) return new Accepted(result.value);
  const first = issues[0] ?? {};
  const message = typeof first.message === 'string' ? first.message : 'is invalid';
  return { pointer: pointerOf(first.path ?? []), message };
}

function pointerOf(path: readonly unknown[]): string {
  let pointer = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? (segment as { key: unknown }).key : segment;
    pointer += `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  return pointer;
}

function isPlainObject(value: unknown): value is JsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    const hint = '_def' in value ? ' (a zod 3 schema? zod 4 implements Standard Schema)' : '';
    return `an instance of ${typeof name === 'string' && name !== '' ? name : 'a class'}${hint}`;
  }
  return `a ${typeof value}`;
}
