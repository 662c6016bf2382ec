// Every published package of the workspace (as pnpm lists them) is ready to publish the way RELEASING.md says:
// public with provenance, under the root's Apache-2.0 licence, and its tarball (as `changeset publish` packs it,
// with pnpm) carries LICENSE and, once released, its CHANGELOG.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shippedFiles } from './support/readme-links.js';
import { publishedPackages } from './support/release-repo.js';
import { REPO_ROOT } from './support/repo-copy.js';

const packages = publishedPackages(REPO_ROOT);
const LICENSE = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
/** What the tarball of each package would ship, by name. */
const shipped = shippedFiles(
  REPO_ROOT,
  packages.map((p) => p.dir),
);

describe('the published packages are ready to publish', () => {
  it('pnpm lists them, and the root LICENSE is the Apache License 2.0', () => {
    expect(packages.length).toBeGreaterThan(0);
    expect(LICENSE).toContain('Apache License\n                           Version 2.0, January 2004');
  });

  it.each(packages.map((p) => [p.name, p]))(
    '%s: publishConfig, licence, and what its tarball ships',
    (_, p) => {
      const dir = join(REPO_ROOT, p.dir);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        license?: string;
        files?: string[];
        publishConfig?: { access?: string; provenance?: boolean };
      };
      expect(manifest.license).toBe('Apache-2.0');
      expect(manifest.publishConfig).toMatchObject({ access: 'public', provenance: true });
      // The package's own copy of the root LICENSE: npm and pnpm pack it whatever `files` says.
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(LICENSE);
      expect(shipped.get(p.name)).toContain('LICENSE');
      // Neither packs a CHANGELOG.md by itself: `files` names it, for the releases that write one.
      expect(manifest.files).toContain('CHANGELOG.md');
    },
  );
});
