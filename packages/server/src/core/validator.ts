/**
 * JSON Schema validation with ajv, compiled once per schema at registration. The dialect follows
 * `$schema`: draft-07 when it says so, JSON Schema 2020-12 otherwise (the MCP default).
 */

import Ajv2020Module from 'ajv/dist/2020.js';
import AjvDraft7Module from 'ajv/dist/ajv.js';
import formatsModule from 'ajv-formats';
import { LocalError } from './errors.js';
import type { JsonSchema } from './types.js';

type AjvInstance = InstanceType<typeof Ajv2020Module.default>;
type ValidateFunction = ReturnType<AjvInstance['compile']>;

export interface SchemaIssue {
  /** JSON pointer into the validated value ('' is the value itself). */
  pointer: string;
  message: string;
}

/** Validates one value; returns undefined when it conforms, otherwise the first problem. */
export type Validator = (value: unknown) => SchemaIssue | undefined;

let ajv2020: AjvInstance | undefined;
let ajv7: AjvInstance | undefined;

function unwrap<T>(mod: T): T extends { default: infer D } ? D : T {
  return ((mod as { default?: unknown }).default ?? mod) as T extends { default: infer D } ? D : T;
}

function make(Ctor: unknown): AjvInstance {
  const AjvCtor = Ctor as new (opts: object) => AjvInstance;
  const instance = new AjvCtor({ strict: false, allErrors: false, validateSchema: true });
  const addFormats = unwrap(formatsModule) as unknown as (a: AjvInstance) => void;
  addFormats(instance);
  return instance;
}

function ajvFor(schema: JsonSchema): AjvInstance {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('draft-07') || dialect.includes('draft-06') || dialect.includes('draft-04')) {
    ajv7 ??= make(unwrap(AjvDraft7Module));
    return ajv7;
  }
  ajv2020 ??= make(unwrap(Ajv2020Module));
  return ajv2020;
}

/** Compile `schema` (named `what` in errors); throws LocalError('INVALID_SCHEMA') if it is not valid. */
export function compileSchema(schema: JsonSchema, what: string): Validator {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new LocalError('INVALID_SCHEMA', `${what} must be a JSON Schema object`);
  }
  let validate: ValidateFunction;
  try {
    const { $schema: _dialect, ...body } = schema;
    validate = ajvFor(schema).compile(body);
  } catch (error) {
    throw new LocalError('INVALID_SCHEMA', `${what} is not a valid JSON Schema: ${(error as Error).message}`);
  }
  return (value) => {
    if (validate(value)) return undefined;
    const first = validate.errors?.[0];
    if (!first) return { pointer: '', message: 'does not match the schema' };
    let pointer = first.instancePath;
    const params = first.params as Record<string, unknown>;
    if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
      pointer += `/${params.missingProperty.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    } else if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      pointer += `/${params.additionalProperty}`;
    }
    return { pointer, message: first.message ?? 'does not match the schema' };
  };
}
