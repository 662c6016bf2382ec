// The binary layer of the gate: libabigail's view of the headers, beside the TypeScript model's.
import { join } from 'node:path';
import { onlyGrowth } from '../abigail/diff.js';
import { compareHeadersWithReference, compareReferenceTexts, REFERENCE_FILE } from '../abigail/reference.js';
import { VERSION_MACRO } from '../model/read-model.js';
import type { AbiSide, AbiState } from './state.js';
import type { Finding } from './types.js';

const UPDATE = 'pnpm exec entropic-abi abi-dump --update';

function indent(text: string, max = 40): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, max).map((l) => `    ${l}`);
  if (lines.length > max)
    shown.push(`    … ${lines.length - max} more lines (run \`pnpm exec entropic-abi abi-dump\`)`);
  return shown.join('\n');
}

/** The headers on disk compile to exactly the committed binary reference. */
export function checkBinaryReference(head: AbiState, label: string): Finding[] {
  const cmp = compareHeadersWithReference(join(head.root, 'include'), join(head.root, REFERENCE_FILE));
  if (cmp.kind === 'same') return [];
  if (cmp.kind === 'missing') {
    return [
      {
        rule: 'binary-reference',
        message: `${label}/${REFERENCE_FILE} does not exist. Create it with \`${UPDATE}\` and commit it.`,
      },
    ];
  }
  return [
    {
      rule: 'binary-reference',
      message:
        `The binary ABI of ${label}/include (a stub library compiled from the headers, read by abidw) differs ` +
        `from ${label}/${REFERENCE_FILE}. abidiff reports:\n${indent(cmp.report)}\n` +
        `If the headers were edited by hand, regenerate them. If the change is intended, version it ` +
        `(see the rules above) and refresh the reference with \`${UPDATE}\`.`,
    },
  ];
}

/**
 * A harmful change between the base's reference and the head's needs an API version bump. Added functions
 * and objects are not harmful, nor members appended to a struct that is growable at the base and the head.
 */
export function checkBinaryAgainstBase(base: AbiSide, head: AbiSide, baseLabel: string): Finding[] {
  if (!base.reference || !head.reference || base.reference === head.reference) return [];
  if (head.apiVersion !== base.apiVersion) return [];
  const d = compareReferenceTexts(base.reference, head.reference);
  if (!d.changed) return [];
  const growableIn = (s: AbiSide) => s.locked.structs.filter((x) => x.growable).map((x) => x.name);
  const growable = growableIn(base).filter((name) => growableIn(head).includes(name));
  if (growable.length > 0 && onlyGrowth(d.report, growable)) return [];
  return [
    {
      rule: 'binary-not-bumped',
      message:
        `The committed binary ABI reference changed incompatibly since ${baseLabel} but ` +
        `${VERSION_MACRO} is still ${head.apiVersion}. abidiff reports:\n${indent(d.report)}\n` +
        `Bump the API version (and add a major changeset for @entropic-mcp/abi-headers), or undo the change.`,
    },
  ];
}
