/**
 * Types for tool schemas: what `inputSchema`/`outputSchema` accept, and what handlers receive and
 * return for a given schema (a Standard Schema's types, or `FromSchema` of a JSON Schema literal).
 */

import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** A JSON Schema document, as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** A schema with both Standard Schema validation and the Standard JSON Schema converter (zod 4, arktype, …). */
export interface StandardJsonSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/** What a tool's `inputSchema`/`outputSchema` may be. */
export type ToolSchema = JsonSchema | StandardJsonSchema;

/** A Standard Schema's declared types (read directly: cheaper for tsc than matching the interface). */
type StandardTypes<T> =
  NonNullable<T> extends { readonly input: unknown; readonly output: unknown }
    ? NonNullable<T>
    : { input: unknown; output: unknown };

/** A plain `Record<string, unknown>` schema (not a literal): nothing to infer from it. */
type Widened<S> = string extends keyof S ? true : false;

/** The value a schema describes on the given side ('in': what callers send; 'out': what it produces). */
type SchemaValue<S, Side extends 'in' | 'out'> = S extends {
  readonly '~standard': { readonly types?: infer T };
}
  ? Side extends 'in'
    ? StandardTypes<T>['input']
    : StandardTypes<T>['output']
  : Widened<S> extends true
    ? Record<string, unknown>
    : S extends JSONSchema
      ? FromSchema<S>
      : Record<string, unknown>;

/** The arguments a tool handler receives for `inputSchema` S (Record<string, unknown> without one). */
export type ToolArgs<S> = [S] extends [undefined] ? Record<string, unknown> : SchemaValue<S, 'out'>;

/** The `structuredContent` a handler returns for `outputSchema` S (it is validated, then sent). */
export type ToolStructured<S> = [S] extends [undefined] ? Record<string, unknown> : SchemaValue<S, 'in'>;
