// What every package's exports test checks of its errors: each exported error class extends the package's one
// base, and each code a package throws is listed under the package's heading in docs/errors.md.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ERRORS_DOC = fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url));

/** The exported names whose value is a class that makes errors, sorted. */
export function errorClasses(module: Record<string, unknown>): string[] {
  return Object.entries(module)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
    .map(([name]) => name)
    .sort();
}

/** The exported error classes that do not extend `base` (the base itself excepted). */
export function outsideBase(
  module: Record<string, unknown>,
  base: abstract new (...args: never[]) => Error,
): string[] {
  return errorClasses(module).filter((name) => {
    const value = module[name] as { prototype: unknown };
    return value !== base && !(value.prototype instanceof base);
  });
}

/** The codes (`` `CODE` `` in the first column of a table row) listed under `## heading` in docs/errors.md. */
export function documentedCodes(heading: string): string[] {
  const text = readFileSync(ERRORS_DOC, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/errors.md has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1] as string);
}
