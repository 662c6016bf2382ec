// The generated tables (TypeScript and C) by path.
import type { AbiModel } from '../model/types.js';
import { renderCTables } from './tables-c.js';
import { renderTsTables } from './tables-ts.js';

/** Where the generated tables live, relative to the abi-headers package root. */
export const TS_TABLES_PATH = 'src/generated/tables.ts';
export const C_TABLES_PATH = 'native/entropic_abi_tables.h';

/** Renders the loader tables; keys are paths relative to the abi-headers package root. */
export function renderTables(model: AbiModel): Record<string, string> {
  return { [TS_TABLES_PATH]: renderTsTables(model), [C_TABLES_PATH]: renderCTables(model) };
}
