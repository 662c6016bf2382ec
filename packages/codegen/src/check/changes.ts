// Words for how the locked ABI changed between two models: the declaration-level summary from
// diffLocked, each with the exact member, parameter or enumerator that moved.
import { diffLocked, type LockDiff } from '../lock/diff.js';
import type { LockedSubset } from '../lock/subset.js';
import { diffSubsets } from './subset-diff.js';

export interface ChangeReport {
  kind: LockDiff['kind'];
  /** Bullet lines ready to print. */
  lines: string[];
}

export function describeChanges(before: LockedSubset, after: LockedSubset): ChangeReport {
  const d = diffLocked(before, after);
  const details = diffSubsets(before, after);
  const lines: string[] = [];
  const entries = [
    ...d.breaking.map((t) => ({ t, tag: 'breaking' })),
    ...d.additive.map((t) => ({ t, tag: 'additive' })),
  ];
  for (const { t, tag } of entries) {
    // Whole-declaration renderings of big structs are long; the detail lines below say what moved.
    const summary =
      t.length > 160 && t.includes(' changed: ') ? `${t.slice(0, t.indexOf(' changed: '))} changed` : t;
    lines.push(`  - ${summary} [${tag}]`);
    const name = /^\w+ (\S+)/.exec(t)?.[1];
    for (const c of details) {
      if (c.path[1] === name && c.path.length > 2)
        lines.push(`      ${c.text.split(' › ').slice(2).join(' › ')}`);
    }
  }
  return { kind: d.kind, lines };
}
