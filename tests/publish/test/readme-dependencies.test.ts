// Each published package's README says why each of its dependencies is there: every name in its package.json
// (runtime, optional, peer and development) is named in the README's "Dependencies" section.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED, REPO_ROOT } from './support/repo-copy.js';

const KINDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'] as const;

/** The text of the README's "## Dependencies" section, up to the next heading of that level. */
function dependenciesSection(readme: string): string {
  const start = readme.search(/^## Dependencies\s*$/m);
  if (start < 0) return '';
  const rest = readme.slice(start + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('README dependencies of the published packages', () => {
  it.each(PUBLISHED)('%s: its Dependencies section names every dependency', (name) => {
    const dir = join(REPO_ROOT, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Partial<
      Record<(typeof KINDS)[number], Record<string, string>>
    >;
    const section = dependenciesSection(readFileSync(join(dir, 'README.md'), 'utf8'));
    expect(section, `${name}/README.md has no "## Dependencies" section`).not.toBe('');
    const names = new Set(KINDS.flatMap((kind) => Object.keys(manifest[kind] ?? {})));
    const unnamed = [...names].filter((dep) => !section.includes(`\`${dep}\``)).sort();
    expect(unnamed, `dependencies of ${name} its README does not name`).toEqual([]);
  });
});
