// The part of the ABI model the lock pins (what binary compatibility depends on).
import { allItems, hasMacroName } from '../model/queries.js';
import { VERSION_MACRO } from '../model/read-model.js';
import type { AbiItem, AbiModel, AbiType } from '../model/types.js';

/** A type as the lock records it: parameter names dropped (C linkage ignores them). */
export type LockedType =
  | { kind: 'builtin'; spelling: string }
  | { kind: 'typedef'; name: string }
  | { kind: 'const-pointer'; to: string }
  | { kind: 'function-pointer'; returns: LockedType; params: LockedType[] };

/**
 * The part of the model an API version locks: the header paths and include graph, declarations, struct layout, enumerators, the
 * handle typedef and the macros, without documentation, parameter names, declaration order,
 * the export macro, or the version macro itself (that is the lock's key).
 */
export interface LockedSubset {
  /**
   * The installed headers: include path, what each includes (in order) and the names it declares
   * (sorted). Plugins include these paths, so moving or removing one breaks their builds. Absent in
   * entries written before headers were locked.
   */
  headers?: LockedHeader[];
  handles: { name: string; tag: string }[];
  /** `optional: true` marks an optional entry point (absent on the others). */
  functions: { name: string; optional?: true; returns: LockedType; params: LockedType[] }[];
  /** `growable: true` marks a struct that may gain members at its end (absent on the others). */
  structs: { name: string; growable?: true; members: { name: string; type: LockedType }[] }[];
  enums: { name: string; enumerators: { name: string; value: number }[] }[];
  defines: { name: string; value: number }[];
}

export interface LockedHeader {
  path: string;
  includes: string[];
  declares: string[];
}

export function lockedType(type: AbiType): LockedType {
  if (type.kind === 'function-pointer') {
    return {
      kind: 'function-pointer',
      returns: lockedType(type.returns),
      params: type.params.map((p) => lockedType(p.type)),
    };
  }
  if (type.kind === 'const-pointer') return { kind: 'const-pointer', to: type.to };
  return type.kind === 'builtin'
    ? { kind: 'builtin', spelling: type.spelling }
    : { kind: 'typedef', name: type.name };
}

/** The names a header declares: its items, and the `_HAS` macro of each growable struct. */
function declaredNames(items: AbiItem[]): string[] {
  const names = items.map((i) => i.name);
  for (const i of items) if (i.kind === 'struct' && i.growable) names.push(hasMacroName(i.name));
  return names.sort();
}

const byPath = (a: LockedHeader, b: LockedHeader) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Extracts the locked subset of the model (arrays whose order is not ABI are sorted by name). */
export function lockedSubset(model: AbiModel): LockedSubset {
  const subset: LockedSubset = {
    headers: model.headers
      .map((h) => ({ path: h.path, includes: [...h.includes], declares: declaredNames(h.items) }))
      .sort(byPath),
    handles: [],
    functions: [],
    structs: [],
    enums: [],
    defines: [],
  };
  for (const { item } of allItems(model)) {
    if (item.kind === 'handle') subset.handles.push({ name: item.name, tag: item.tag });
    if (item.kind === 'function') {
      subset.functions.push({
        name: item.name,
        ...(item.optional ? { optional: true as const } : {}),
        returns: lockedType(item.returns),
        params: item.params.map((p) => lockedType(p.type)),
      });
    }
    if (item.kind === 'struct') {
      subset.structs.push({
        name: item.name,
        ...(item.growable ? { growable: true as const } : {}),
        members: item.members.map((m) => ({ name: m.name, type: lockedType(m.type) })),
      });
    }
    if (item.kind === 'enum') {
      subset.enums.push({
        name: item.name,
        enumerators: item.enumerators.map((e) => ({ name: e.name, value: e.value })),
      });
    }
    if (item.kind === 'define' && item.name !== VERSION_MACRO)
      subset.defines.push({ name: item.name, value: item.value });
  }
  subset.handles.sort(byName);
  subset.functions.sort(byName);
  subset.structs.sort(byName);
  subset.enums.sort(byName);
  subset.defines.sort(byName);
  return subset;
}
