/**
 * The full JSON Schema validator: ajv (2020-12, or draft-07 when `$schema` names it) with
 * ajv-formats. Loaded on the first schema that needs it, so servers whose schemas stay in the
 * simple subset never pay for it.
 */

import { createRequire } from 'node:module';
import type { FullValidatorFactory, SchemaIssue } from '../core/validator.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
interface AjvValidate {
  (value: unknown): boolean;
  errors?: AjvError[] | null;
}
interface AjvLike {
  compile(schema: object): AjvValidate;
}

let ajv2020: AjvLike | undefined;
let ajv7: AjvLike | undefined;
let load: ((id: string) => unknown) | undefined;

/**
 * ajv and ajv-formats, required from beside this file. The loader is made on first use, not at import: a
 * bundle for a runtime without files (Cloudflare Workers) has no `import.meta.url` to resolve from, and
 * importing the package there must still succeed.
 */
function requireFromHere(id: string): unknown {
  try {
    load ??= createRequire(import.meta.url);
    return load(id);
  } catch (error) {
    throw new Error(
      `the full JSON Schema validator (ajv) cannot be loaded on this runtime (${(error as Error).message}); ` +
        'keep the schema within the simple subset or pass a Standard Schema (zod 4, valibot, arktype)',
    );
  }
}

function make(modulePath: string): AjvLike {
  const mod = requireFromHere(modulePath) as { default?: unknown };
  const Ajv = (mod.default ?? mod) as new (options: object) => AjvLike;
  const instance = new Ajv({ strict: false, allErrors: false, validateSchema: true });
  const formats = requireFromHere('ajv-formats') as { default?: unknown };
  ((formats.default ?? formats) as (ajv: AjvLike) => void)(instance);
  return instance;
}

function ajvFor(dialect: string): AjvLike {
  if (/draft-0[467]/.test(dialect)) {
    ajv7 ??= make('ajv/dist/ajv.js');
    return ajv7;
  }
  ajv2020 ??= make('ajv/dist/2020.js');
  return ajv2020;
}

function firstIssue(validate: AjvValidate): SchemaIssue {
  const first = validate.errors?.[0];
  if (!first) return { pointer: '', message: 'does not match the schema' };
  let pointer = first.instancePath;
  const params = first.params;
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer += `/${params.missingProperty.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  } else if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer += `/${params.additionalProperty.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  return { pointer, message: first.message ?? 'does not match the schema' };
}

export const ajvValidatorFactory: FullValidatorFactory = (schema) => {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  const { $schema: _dialect, ...body } = schema;
  const validate = ajvFor(dialect).compile(body);
  return (value) => (validate(value) ? undefined : firstIssue(validate));
};
