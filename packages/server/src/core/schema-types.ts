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

/** A Standard Schema without the JSON Schema converter (plain valibot, zod 3): refused, with a message. */
export interface StandardSchemaOnly {
  readonly '~standard': StandardSchemaV1.Props;
}

/** What a schema parameter is inferred from: every ToolSchema, and the shapes refused with a message. */
export type SchemaCandidate = ToolSchema | StandardSchemaOnly;

/** Whether some property of S is itself a library schema (`{ a: z.number() }`: a record of field schemas). */
type HasFieldSchemas<S> = S extends object
  ? true extends { [K in keyof S]-?: S[K] extends { readonly '~standard': unknown } ? true : false }[keyof S]
    ? true
    : false
  : false;

/** Why tsc refuses schema S, as a string literal it shows in the error; never when S is fine. */
export type SchemaProblem<S> = [S] extends [undefined]
  ? never
  : S extends { readonly '~standard': { readonly jsonSchema: unknown } }
    ? never
    : S extends { readonly '~standard': unknown }
      ? 'a Standard Schema without JSON Schema support: for valibot, wrap it in toStandardJsonSchema() from @valibot/to-json-schema; zod 3 schemas need zod 4'
      : HasFieldSchemas<S> extends true
        ? 'a record of field schemas ({ a: z.number() }) is not one schema: wrap it in z.object({ ... })'
        : never;

/** An intersection that makes tsc refuse `definition[Key]` with the problem's text, when S has one. */
export type SchemaChecked<S, Key extends string> = [SchemaProblem<S>] extends [never]
  ? unknown
  : { [K in Key]: SchemaProblem<S> };

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

/** The arguments a prompt handler receives for `argsSchema` S (the strings the client sent, without one). */
export type PromptArgs<S> = [S] extends [undefined] ? Record<string, string> : SchemaValue<S, 'out'>;

/** The `structuredContent` a handler returns for `outputSchema` S (it is validated, then sent). */
export type ToolStructured<S> = [S] extends [undefined] ? Record<string, unknown> : SchemaValue<S, 'in'>;
