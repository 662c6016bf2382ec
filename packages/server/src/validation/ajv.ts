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

const require = createRequire(import.meta.url);
let ajv2020: AjvLike | undefined;
let ajv7: AjvLike | undefined;

function make(modulePath: string): AjvLike {
  const mod = require(modulePath) as { default?: unknown };
  const Ajv = (mod.default ?? mod) as new (options: object) => AjvLike;
  const instance = new Ajv({ strict: false, allErrors: false, validateSchema: true });
  const formats = require('ajv-formats') as { default?: unknown };
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
