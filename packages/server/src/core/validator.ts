/**
 * JSON Schema validation, compiled once per schema at registration. Schemas inside the common
 * subset (see simple-schema.ts) get a direct validator; any other schema goes to the full validator
 * installed with `useFullValidator` (ajv, wired by the package entry and loaded on first use), which
 * follows `$schema`: draft-07 when it says so, JSON Schema 2020-12 otherwise (the MCP default).
 */

import { LocalError } from './errors.js';
import type { SchemaIssue, Validator } from './schema-issue.js';
import { compileSimple } from './simple-schema.js';
import type { JsonSchema } from './types.js';

export type { SchemaIssue, Validator };

/** Compiles any schema; throws (any error) when the schema itself is invalid. */
export type FullValidatorFactory = (schema: JsonSchema) => Validator;

let full: FullValidatorFactory | undefined;

/** Install the validator used for schemas outside the simple subset. */
export function useFullValidator(factory: FullValidatorFactory): void {
  full = factory;
}

const SIMPLE_DIALECTS = /^https?:\/\/json-schema\.org\/(draft\/2020-12|draft-07|draft-06)\/schema#?$/;

/** Compile `schema` (named `what` in errors); throws LocalError('INVALID_SCHEMA') if it is not valid. */
export function compileSchema(schema: JsonSchema, what: string): Validator {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new LocalError('INVALID_SCHEMA', `${what} must be a JSON Schema object`);
  }
  const dialect = schema.$schema;
  if (dialect === undefined || (typeof dialect === 'string' && SIMPLE_DIALECTS.test(dialect))) {
    const simple = compileSimple(schema);
    if (simple !== undefined) return simple;
  }
  if (full === undefined) {
    throw new LocalError(
      'INVALID_SCHEMA',
      `${what} needs a full JSON Schema validator and none is installed`,
    );
  }
  try {
    return full(schema);
  } catch (error) {
    throw new LocalError('INVALID_SCHEMA', `${what} is not a valid JSON Schema: ${(error as Error).message}`);
  }
}
