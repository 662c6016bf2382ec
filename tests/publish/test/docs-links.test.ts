// The repository's own documents, as read on the repository: every relative link of the root README, RELEASING.md,
// bench/ and docs/ names a file that exists, and every anchor a heading of the document it points into.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, relativeLinks } from './support/readme-links.js';
import { REPO_ROOT } from './support/repo-copy.js';

const DOCUMENTS = [
  'README.md',
  'RELEASING.md',
  'bench/README.md',
  'bench/HISTORY.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The links of `document` (a path from the repository root) that lead nowhere, each with the reason. */
function deadRepoLinks(document: string): string[] {
  const from = join(REPO_ROOT, document);
  const dead: string[] = [];
  for (const target of relativeLinks(readFileSync(from, 'utf8'))) {
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? from : join(dirname(from), decodeURIComponent(path));
    if (!existsSync(file)) {
      dead.push(`${target}: no such file`);
      continue;
    }
    if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith('.md')) continue;
    if (!headingAnchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
      dead.push(`${target}: no heading of ${relative(REPO_ROOT, file)} has this anchor`);
    }
  }
  return dead;
}

describe('links of the repository documents', () => {
  it.each(DOCUMENTS)('%s: every relative link resolves to a file and a heading', (document) => {
    expect(deadRepoLinks(document)).toEqual([]);
  });
});
