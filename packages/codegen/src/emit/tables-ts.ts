// Renders src/generated/tables.ts: API version, entry points and error codes for TypeScript.
import { entryPoints, enumNamed, errorEnum, optionalEntryPoints } from '../model/queries.js';
import type { AbiModel } from '../model/types.js';
import { tsBanner } from './banner.js';

/** The name the reverse lookup answers for a code outside the list. */
export const UNKNOWN_ERROR_NAME = 'ENTROPIC_ERROR_UNKNOWN';

const q = (s: string) => `'${s}'`;

/** `export const NAME = [...] as const;` on one line when it fits the formatter's width, else one item a line. */
function constArray(name: string, items: string[]): string {
  const line = `export const ${name} = [${items.map(q).join(', ')}] as const;`;
  if (line.length <= 110) return line;
  return `export const ${name} = [\n${items.map((i) => `  ${q(i)},`).join('\n')}\n] as const;`;
}

/** The enum of log levels and the prefix its enumerators share before the MCP level name. */
export const LOG_LEVEL_ENUM = 'entropic_log_level_t';
export const LOG_LEVEL_PREFIX = 'ENTROPIC_LOG_';

/** MCP level names by value (`ENTROPIC_LOG_WARNING` = 3 → index 3 is 'warning'); empty without the enum. */
export function logLevelNames(model: AbiModel): string[] {
  const levels = enumNamed(model, LOG_LEVEL_ENUM)?.enumerators ?? [];
  const names: string[] = [];
  for (const e of levels) {
    if (!e.name.startsWith(LOG_LEVEL_PREFIX) || e.value !== names.length) {
      throw new Error(
        `${LOG_LEVEL_ENUM}: ${e.name} = ${e.value} is not ${LOG_LEVEL_PREFIX}<LEVEL> = ${names.length}`,
      );
    }
    names.push(e.name.slice(LOG_LEVEL_PREFIX.length).toLowerCase());
  }
  return names;
}

/** Renders `src/generated/tables.ts` of abi-headers. */
export function renderTsTables(model: AbiModel): string {
  const symbols = entryPoints(model).map((f) => `  ${q(f.name)},`);
  const optional = constArray(
    'OPTIONAL_ENTRY_POINTS',
    optionalEntryPoints(model).map((f) => f.name),
  );
  const levels = constArray('LOG_LEVELS', logLevelNames(model));
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

/** Entry points a plugin may add (the plugin context): the loader looks them up, none is required. */
${optional}

export type OptionalEntryPointName = (typeof OPTIONAL_ENTRY_POINTS)[number];

/** ${LOG_LEVEL_ENUM} values as MCP logging levels: index = value. */
${levels}

export type LogLevelName = (typeof LOG_LEVELS)[number];

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
