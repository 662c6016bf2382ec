// Compares two locked subsets and classes the difference: same, additive (appended enumerators, new
// headers or includes) or breaking, naming every difference.
import { diffHeaders } from './diff-headers.js';
import { canonicalJson } from './fingerprint.js';
import type { LockedSubset, LockedType } from './subset.js';

/** How two locked subsets differ. */
export interface LockDiff {
  /** `same`: identical; `additive`: only enumerators appended or headers, includes, declarations added; `breaking`: anything else. */
  kind: 'same' | 'additive' | 'breaking';
  additive: string[];
  breaking: string[];
}

function typeText(t: LockedType): string {
  if (t.kind === 'builtin') return t.spelling;
  if (t.kind === 'typedef') return t.name;
  return `${typeText(t.returns)} (*)(${t.params.map(typeText).join(', ') || 'void'})`;
}

type Section = Exclude<keyof LockedSubset, 'headers'>;
const describe: Record<Section, (item: never) => string> = {
  handles: (h: { name: string; tag: string }) => `typedef struct ${h.tag}* ${h.name}`,
  functions: (f: { name: string; returns: LockedType; params: LockedType[] }) =>
    `${typeText(f.returns)} ${f.name}(${f.params.map(typeText).join(', ') || 'void'})`,
  structs: (s: { name: string; members: { name: string; type: LockedType }[] }) =>
    `struct ${s.name} { ${s.members.map((m) => `${typeText(m.type)} ${m.name};`).join(' ')} }`,
  enums: (e: { name: string; enumerators: { name: string; value: number }[] }) =>
    `enum ${e.name} { ${e.enumerators.map((x) => `${x.name} = ${x.value}`).join(', ')} }`,
  defines: (d: { name: string; value: number }) => `#define ${d.name} ${d.value}`,
};
const singular: Record<Section, string> = {
  handles: 'handle',
  functions: 'function',
  structs: 'struct',
  enums: 'enum',
  defines: 'macro',
};

/** Appended enumerators, or undefined when the change is more than an append. */
function appended(
  before: LockedSubset['enums'][number],
  after: LockedSubset['enums'][number],
): string[] | undefined {
  const old = before.enumerators;
  const now = after.enumerators;
  if (now.length <= old.length) return undefined;
  if (old.some((e, i) => canonicalJson(e) !== canonicalJson(now[i]))) return undefined;
  const max = Math.max(...old.map((e) => e.value));
  const added = now.slice(old.length);
  if (added.some((e) => e.value <= max)) return undefined;
  return added.map((e) => `${e.name} = ${e.value}`);
}

/** Compares two locked subsets; every difference is named in `additive` or `breaking`. */
export function diffLocked(before: LockedSubset, after: LockedSubset): LockDiff {
  const diff: LockDiff = { kind: 'same', additive: [], breaking: [] };
  for (const section of Object.keys(describe) as Section[]) {
    const show = describe[section] as (item: unknown) => string;
    const old = new Map((before[section] ?? []).map((i: { name: string }) => [i.name, i]));
    const now = new Map((after[section] ?? []).map((i: { name: string }) => [i.name, i]));
    for (const [name, item] of old) {
      const next = now.get(name);
      if (!next) diff.breaking.push(`${singular[section]} ${name} removed (was: ${show(item)})`);
      else if (canonicalJson(item) !== canonicalJson(next)) {
        const added = section === 'enums' ? appended(item as never, next as never) : undefined;
        if (added) diff.additive.push(`enum ${name}: appended ${added.join(', ')}`);
        else diff.breaking.push(`${singular[section]} ${name} changed: ${show(item)} → ${show(next)}`);
      }
    }
    for (const [name, item] of now) {
      if (!old.has(name)) diff.breaking.push(`${singular[section]} ${name} added: ${show(item)}`);
    }
  }
  const headers = diffHeaders(before.headers, after.headers);
  diff.breaking.push(...headers.breaking);
  diff.additive.push(...headers.additive);
  diff.kind = diff.breaking.length > 0 ? 'breaking' : diff.additive.length > 0 ? 'additive' : 'same';
  return diff;
}
