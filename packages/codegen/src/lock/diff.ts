// Compares two locked subsets and classes the difference: same, additive (appended enumerators, members
// appended to a growable struct, new declarations other than required entry points, new headers or
// includes) or breaking, naming every difference.
import { diffHeaders } from './diff-headers.js';
import { canonicalJson } from './fingerprint.js';
import type { LockedSubset, LockedType } from './subset.js';

/** How two locked subsets differ. */
export interface LockDiff {
  /**
   * `same`: identical; `additive`: only enumerators appended, members appended to a growable struct, or
   * headers, includes and declarations added (but no required entry point); `breaking`: anything else.
   */
  kind: 'same' | 'additive' | 'breaking';
  additive: string[];
  breaking: string[];
}

function typeText(t: LockedType): string {
  if (t.kind === 'builtin') return t.spelling;
  if (t.kind === 'typedef') return t.name;
  if (t.kind === 'const-pointer') return `const ${t.to}*`;
  return `${typeText(t.returns)} (*)(${t.params.map(typeText).join(', ') || 'void'})`;
}

type Section = Exclude<keyof LockedSubset, 'headers'>;
const describe: Record<Section, (item: never) => string> = {
  handles: (h: { name: string; tag: string }) => `typedef struct ${h.tag}* ${h.name}`,
  functions: (f: { name: string; optional?: true; returns: LockedType; params: LockedType[] }) =>
    `${f.optional ? '(optional) ' : ''}${typeText(f.returns)} ${f.name}(${f.params.map(typeText).join(', ') || 'void'})`,
  structs: (s: { name: string; growable?: true; members: { name: string; type: LockedType }[] }) =>
    `${s.growable ? '(growable) ' : ''}struct ${s.name} { ${s.members.map((m) => `${typeText(m.type)} ${m.name};`).join(' ')} }`,
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

type LockedStruct = LockedSubset['structs'][number];

/** Members appended at the end of a growable struct, or undefined when the change is more than that. */
function appendedMembers(before: LockedStruct, after: LockedStruct): string[] | undefined {
  if (!before.growable || !after.growable || after.members.length <= before.members.length) return undefined;
  if (before.members.some((m, i) => canonicalJson(m) !== canonicalJson(after.members[i]))) return undefined;
  return after.members.slice(before.members.length).map((m) => `${typeText(m.type)} ${m.name}`);
}

/** What a change to one declaration amounts to when it is additive (its words), else undefined. */
function additiveChange(section: Section, name: string, before: unknown, after: unknown): string | undefined {
  if (section === 'enums') {
    const added = appended(before as never, after as never);
    return added && `enum ${name}: appended ${added.join(', ')}`;
  }
  if (section === 'structs') {
    const added = appendedMembers(before as LockedStruct, after as LockedStruct);
    return added && `growable struct ${name}: appended ${added.join('; ')}`;
  }
  return undefined;
}

/** A new declaration breaks nothing, except a required entry point: plugins already built lack it. */
function additionBreaks(section: Section, item: unknown): boolean {
  return section === 'functions' && (item as { optional?: true }).optional !== true;
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
        const additive = additiveChange(section, name, item, next);
        if (additive) diff.additive.push(additive);
        else diff.breaking.push(`${singular[section]} ${name} changed: ${show(item)} → ${show(next)}`);
      }
    }
    for (const [name, item] of now) {
      if (old.has(name)) continue;
      const text = `${singular[section]} ${name} added: ${show(item)}`;
      if (additionBreaks(section, item)) diff.breaking.push(text);
      else diff.additive.push(text);
    }
  }
  const headers = diffHeaders(before.headers, after.headers);
  diff.breaking.push(...headers.breaking);
  diff.additive.push(...headers.additive);
  diff.kind = diff.breaking.length > 0 ? 'breaking' : diff.additive.length > 0 ? 'additive' : 'same';
  return diff;
}
