// Each published package's README, as npm shows it: every relative link names a file the tarball ships and every
// anchor a heading of the README (a link to a repository file outside the package is dead on the registry).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadLinks, headingAnchors, relativeLinks, shippedFiles } from './support/readme-links.js';
import { PUBLISHED, REPO_ROOT } from './support/repo-copy.js';

const shipped = shippedFiles(
  REPO_ROOT,
  PUBLISHED.map((name) => `packages/${name}`),
);

describe('README links of the published packages', () => {
  it.each(PUBLISHED)('%s: every relative link resolves inside its tarball', (name) => {
    const dir = join(REPO_ROOT, 'packages', name);
    const files = shipped.get(`@entropic-mcp/${name}`) ?? [];
    expect(files).toContain('README.md');
    expect(deadLinks(dir, files)).toEqual([]);
  });

  it('finds links and anchors the way a README is written', () => {
    const readme = [
      '# Title',
      '## Plugin context (API 2)',
      'See [here](#plugin-context-api-2), [the doc](../../docs/scaling.md "Scaling"),',
      '![logo](./img/logo.png) and [site](https://example.com/x) or <mailto:a@b>.',
      '`[not](a-link.md)`',
      '```md',
      '[also not](fenced.md)',
      '```',
      '[ref]: src/index.ts',
    ].join('\n');
    expect(relativeLinks(readme)).toEqual([
      '#plugin-context-api-2',
      '../../docs/scaling.md',
      './img/logo.png',
      'src/index.ts',
    ]);
    expect([...headingAnchors(readme)]).toEqual(['title', 'plugin-context-api-2']);
  });
});
