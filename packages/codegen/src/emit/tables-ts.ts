// Renders src/generated/tables.ts: API version, entry points and error codes for TypeScript.
import { entryPoints, errorEnum } from '../model/queries.js';
import type { AbiModel } from '../model/types.js';
import { tsBanner } from './banner.js';

/** The name the reverse lookup answers for a code outside the list. */
export const UNKNOWN_ERROR_NAME = 'ENTROPIC_ERROR_UNKNOWN';

const q = (s: string) => `'${s}'`;

/** Renders `src/generated/tables.ts` of abi-headers. */
export function renderTsTables(model: AbiModel): string {
  const symbols = entryPoints(model).map((f) => `  ${q(f.name)},`);
  const errors = errorEnum(model).enumerators.map((e) => `  ${e.name}: ${e.value},`);
  const directives = model.directiveTypes.map((d) => `  ${q(d)},`);
  return `${tsBanner('packages/abi-headers/src/abi')}

/** The plugin API version (${model.versionMacro}). */
export const PLUGIN_API_VERSION = ${model.apiVersion};

/** The entry points every plugin exports, in contract order. */
export const ENTRY_POINTS = [
${symbols.join('\n')}
] as const;

export type EntryPointName = (typeof ENTRY_POINTS)[number];

/** entropic_error_t: name → value. */
export const ERROR_CODES = {
${errors.join('\n')}
} as const;

export type ErrorName = keyof typeof ERROR_CODES;

/** The name of a code that is not in entropic_error_t. */
export const UNKNOWN_ERROR_NAME = ${q(UNKNOWN_ERROR_NAME)};

const NAMES_BY_CODE: ReadonlyMap<number, ErrorName> = new Map(
  (Object.entries(ERROR_CODES) as [ErrorName, number][]).map(([name, code]) => [code, name]),
);

/** The name of an entropic_error_t value, or ${UNKNOWN_ERROR_NAME} when it is out of range. */
export function errorName(code: number): ErrorName | typeof UNKNOWN_ERROR_NAME {
  return NAMES_BY_CODE.get(code) ?? UNKNOWN_ERROR_NAME;
}

/** ServerResponse directive type names, by their index. */
export const DIRECTIVE_TYPES = [
${directives.join('\n')}
] as const;

export type DirectiveType = (typeof DIRECTIVE_TYPES)[number];
`;
}
