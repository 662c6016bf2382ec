/**
 * A plugin library's symbols against the ABI lock of `@entropic-mcp/abi-headers`: every entry point the lock's
 * current API version requires is exported as a function, the optional ones (the plugin context) are reported
 * when present, and no `entropic_*` symbol is needed from an engine library no loader provides.
 */
import { readFileSync } from 'node:fs';
import { lockPath } from '@entropic-mcp/abi-headers';
import { closest } from '../suggest.js';
import { dynamicSymbols } from './elf-symbols.js';

interface LockedFunction {
  name: string;
  optional?: true;
}

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

/** The entry points of the lock's latest API version. */
export function lockedEntryPoints(lockFile = lockPath): { apiVersion: number; functions: LockedFunction[] } {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as {
    versions: Record<string, { locked: { functions: LockedFunction[] } }>;
  };
  const apiVersion = Math.max(...Object.keys(lock.versions).map(Number));
  return { apiVersion, functions: lock.versions[String(apiVersion)]?.locked.functions ?? [] };
}

export function checkSymbols(library: string, lockFile = lockPath): SymbolVerdict {
  const { apiVersion, functions } = lockedEntryPoints(lockFile);
  const symbols = dynamicSymbols(library);
  const defined = new Map(symbols.filter((s) => s.defined).map((s) => [s.name, s]));
  const required = functions.filter((f) => f.optional !== true).map((f) => f.name);
  const optional = functions.filter((f) => f.optional === true).map((f) => f.name);
  const known = [...required, ...optional];
  return {
    apiVersion,
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
