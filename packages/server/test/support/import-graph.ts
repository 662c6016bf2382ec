/** Walks the static import graph of a built ES module and returns its files and outside specifiers. */

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface ImportGraph {
  /** Every file reached, entry first. */
  readonly files: string[];
  /** Specifiers that are not relative paths (packages and `node:` modules), with the file importing each. */
  readonly outside: { specifier: string; from: string }[];
}

const IMPORT =
  /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

export function importGraph(entry: string): ImportGraph {
  const files: string[] = [];
  const outside: { specifier: string; from: string }[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else outside.push({ specifier, from: file });
    }
  };
  visit(entry);
  return { files, outside };
}
