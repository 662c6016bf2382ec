/**
 * The one place the loader reads the ABI tables that codegen generated into `@entropic-mcp/abi-headers`
 * (entry-point names, error codes, API version, directive names, log levels). Nothing here restates the contract.
 */
import {
  DIRECTIVE_TYPES,
  ENTRY_POINTS,
  ERROR_CODES,
  errorName as generatedErrorName,
  LOG_LEVELS,
  type LogLevelName,
  OPTIONAL_ENTRY_POINTS,
  PLUGIN_API_VERSION,
} from '@entropic-mcp/abi-headers';

export type { LogLevelName };

/** The API version this loader speaks (`ENTROPIC_MCP_PLUGIN_API_VERSION`). */
export function apiVersion(): number {
  return PLUGIN_API_VERSION;
}

/** The numeric value of a contract error name such as `ENTROPIC_ERROR_PLUGIN_LOAD_FAILED`, if it is one. */
export function errorValue(name: string): number | undefined {
  return Object.hasOwn(ERROR_CODES, name) ? ERROR_CODES[name as keyof typeof ERROR_CODES] : undefined;
}

/** The contract name of a numeric `entropic_error_t`, or `ENTROPIC_ERROR_UNKNOWN` when out of range. */
export function errorName(value: number): string {
  return generatedErrorName(value);
}

/** The directive type names a ServerResponse envelope may carry. */
export function directiveTypes(): readonly string[] {
  return DIRECTIVE_TYPES;
}

/** The nine entry points, in contract order. */
export function entryPoints(): readonly string[] {
  return ENTRY_POINTS;
}

/** The optional entry points (the plugin context's): looked up, never required. */
export function optionalEntryPoints(): readonly string[] {
  return OPTIONAL_ENTRY_POINTS;
}

/** The MCP logging level of an `entropic_log_level_t` value, or undefined out of range. */
export function logLevelName(value: number): LogLevelName | undefined {
  return LOG_LEVELS[value];
}
