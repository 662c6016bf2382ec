// Package entry: where the generated headers, native tables and ABI lock live, and the contract tables.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the folder to pass as `-I`: it holds `entropic/interfaces/i_mcp_server.h` and friends. */
export const includeDir: string = join(packageRoot, 'include');

/** Absolute path of the folder holding `entropic_abi_tables.h`, the private tables for our own native code. */
export const nativeDir: string = join(packageRoot, 'native');

/** Absolute path of the ABI lock, `abi.lock.json`. */
export const lockPath: string = join(packageRoot, 'abi.lock.json');

export {
  DIRECTIVE_TYPES,
  type DirectiveType,
  ENTRY_POINTS,
  type EntryPointName,
  ERROR_CODES,
  type ErrorName,
  errorName,
  LOG_LEVELS,
  type LogLevelName,
  OPTIONAL_ENTRY_POINTS,
  type OptionalEntryPointName,
  PLUGIN_API_VERSION,
  UNKNOWN_ERROR_NAME,
} from './generated/tables.js';
