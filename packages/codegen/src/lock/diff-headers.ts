// How the installed headers changed: a header removed or moved, an include or a declaration taken
// away, is breaking (plugin sources name these paths); new headers, includes and declarations are additive.
import type { LockedHeader } from './subset.js';

export interface HeaderChanges {
  additive: string[];
  breaking: string[];
}

const missing = (from: string[], to: string[]) => from.filter((x) => !to.includes(x));

function compareOne(old: LockedHeader, now: LockedHeader, out: HeaderChanges): void {
  const at = `header <${now.path}>`;
  const droppedIncludes = missing(old.includes, now.includes);
  const keptOrder = old.includes.filter((i) => now.includes.includes(i));
  const nowOrder = now.includes.filter((i) => old.includes.includes(i));
  if (droppedIncludes.length)
    out.breaking.push(`${at} no longer includes ${droppedIncludes.map((i) => `<${i}>`).join(', ')}`);
  else if (keptOrder.join('\n') !== nowOrder.join('\n'))
    out.breaking.push(`${at} includes its headers in a different order: ${now.includes.join(', ')}`);
  const addedIncludes = missing(now.includes, old.includes);
  if (addedIncludes.length)
    out.additive.push(`${at} also includes ${addedIncludes.map((i) => `<${i}>`).join(', ')}`);
  const dropped = missing(old.declares, now.declares);
  if (dropped.length) out.breaking.push(`${at} no longer declares ${dropped.join(', ')}`);
  const added = missing(now.declares, old.declares);
  if (added.length) out.additive.push(`${at} now also declares ${added.join(', ')}`);
}

/**
 * Compares the header sections of two lock entries. An entry written before headers were locked
 * has none; then there is nothing to compare.
 */
export function diffHeaders(before?: LockedHeader[], after?: LockedHeader[]): HeaderChanges {
  const out: HeaderChanges = { additive: [], breaking: [] };
  if (!before || !after) return out;
  const now = new Map(after.map((h) => [h.path, h]));
  const old = new Map(before.map((h) => [h.path, h]));
  for (const h of before) {
    const next = now.get(h.path);
    if (!next) {
      const home = after.find(
        (a) => h.declares.length > 0 && h.declares.every((d) => a.declares.includes(d)),
      );
      out.breaking.push(
        `header <${h.path}> removed${home ? ` (its declarations moved to <${home.path}>)` : ''}: plugin sources that include it stop compiling`,
      );
    } else compareOne(h, next, out);
  }
  for (const h of after) if (!old.has(h.path)) out.additive.push(`header <${h.path}> added`);
  return out;
}
