/**
 * A plugin library's symbols against the ABI lock of `@entropic-mcp/abi-headers`: every entry point the lock's
 * current API version requires is exported as a function, the optional ones (the plugin context) are reported
 * when present, and no `entropic_*` symbol is needed from an engine library no loader provides.
 */
import { apiVersion, entryPoints, optionalEntryPoints } from '../base/abi.js';
import { closest } from '../base/suggest.js';
import { dynamicSymbols } from './elf-symbols.js';

export interface SymbolVerdict {
  readonly apiVersion: number;
  readonly required: readonly string[];
  /** Required entry points the library does not export. */
  readonly missing: readonly string[];
  /** Entry points it exports, but not as functions. */
  readonly notFunctions: readonly string[];
  /** The optional entry points it exports (as functions). */
  readonly optional: readonly string[];
  /** `entropic_*` symbols it needs and no loader provides (the engine's own functions). */
  readonly engineCalls: readonly string[];
  /** `entropic_*` functions it exports that the lock does not know, each with the nearest known name. */
  readonly unknown: readonly { name: string; near: string | undefined }[];
}

/**
 * The verdict on `library`, from the entry points codegen generated out of the lock (`@entropic-mcp/abi-headers`'s
 * tables, read through abi.ts); names are listed in the lock's order (sorted).
 */
export function checkSymbols(library: string): SymbolVerdict {
  const symbols = dynamicSymbols(library);
  const defined = new Map(symbols.filter((s) => s.defined).map((s) => [s.name, s]));
  const required = [...entryPoints()].sort();
  const optional = [...optionalEntryPoints()].sort();
  const known = [...required, ...optional];
  return {
    apiVersion: apiVersion(),
    required,
    missing: required.filter((n) => !defined.has(n)),
    notFunctions: known.filter((n) => defined.has(n) && defined.get(n)?.kind !== 'function'),
    optional: optional.filter((n) => defined.get(n)?.kind === 'function'),
    engineCalls: symbols
      .filter((s) => !s.defined && s.name.startsWith('entropic_'))
      .map((s) => s.name)
      .sort(),
    unknown: [...defined.values()]
      .filter((s) => s.kind === 'function' && s.name.startsWith('entropic_') && !known.includes(s.name))
      // An extra exported function is most likely a misspelt optional entry point, else a required one.
      .map((s) => ({ name: s.name, near: closest(s.name, optional) ?? closest(s.name, required) })),
  };
}

export function symbolsOk(v: SymbolVerdict): boolean {
  return v.missing.length === 0 && v.notFunctions.length === 0 && v.engineCalls.length === 0;
}
