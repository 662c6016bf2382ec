// The committed binary ABI reference (packages/abi-headers/abi/) and comparisons against it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dumpHeadersAbi, withTempDir } from './build.js';
import { type AbiDiff, abidiff } from './diff.js';

/** Where the reference dump lives inside the abi-headers package. */
export const REFERENCE_FILE = join('abi', 'entropic-mcp-plugin.abi');

export function referencePath(abiHeadersRoot: string): string {
  return join(abiHeadersRoot, REFERENCE_FILE);
}

export type ReferenceComparison =
  | { kind: 'same' }
  | { kind: 'missing'; reference: string }
  | ({ kind: 'changed'; reference: string } & AbiDiff);

/**
 * Builds the stub from `includeDir` and compares its ABI with the reference file. Harmless changes
 * (const qualifiers, added enumerators) count too: the reference must describe the headers exactly.
 */
export function compareHeadersWithReference(includeDir: string, reference: string): ReferenceComparison {
  if (!existsSync(reference)) return { kind: 'missing', reference };
  const { abi } = dumpHeadersAbi(includeDir);
  const d = diffTexts(readFileSync(reference, 'utf8'), abi, true);
  return d.changed ? { kind: 'changed', reference, ...d } : { kind: 'same' };
}

/** Compares two reference dumps given as text (for base-versus-head checks); harmful changes only. */
export function compareReferenceTexts(before: string, after: string): AbiDiff {
  return diffTexts(before, after, false);
}

/** abidiff verdicts already computed in this process, by the hash of both dumps and the mode. */
const verdicts = new Map<string, AbiDiff>();

function diffTexts(before: string, after: string, harmless: boolean): AbiDiff {
  const key = createHash('sha256').update(`${harmless}\0${before}\0${after}`).digest('hex');
  const known = verdicts.get(key);
  if (known) return known;
  const d = withTempDir('entropic-abi-cmp-', (dir) => {
    const a = join(dir, 'before.abi');
    const b = join(dir, 'after.abi');
    writeFileSync(a, before);
    writeFileSync(b, after);
    // Against the committed reference every change counts; between two references (base and head) an
    // added function or object breaks nothing already built.
    return abidiff(a, b, harmless ? { harmless } : { noAdded: true });
  });
  verdicts.set(key, d);
  return d;
}

/** Rewrites the reference from the headers; returns whether its content changed. */
export function updateReference(includeDir: string, reference: string): boolean {
  const { abi } = dumpHeadersAbi(includeDir);
  const old = existsSync(reference) ? readFileSync(reference, 'utf8') : null;
  if (old === abi) return false;
  mkdirSync(dirname(reference), { recursive: true });
  writeFileSync(reference, abi);
  return true;
}
