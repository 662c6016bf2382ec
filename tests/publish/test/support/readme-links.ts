// The relative links of a package README and what its tarball ships, to check that each link still leads
// somewhere once the README is read from the registry rather than from the repository.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * What the tarball of each package would hold (paths relative to the package folder), by package name. The
 * releases publish with `changeset publish`, which packs with pnpm, so this asks `pnpm pack --dry-run`: no script
 * runs and no tarball is written. (It lists the same files as `npm pack --dry-run`, at a twentieth of the CPU: npm
 * loads its whole module tree and walks each package's node_modules before listing.)
 */
export function shippedFiles(root: string, packageDirs: readonly string[]): Map<string, string[]> {
  const shipped = new Map<string, string[]>();
  for (const dir of packageDirs) {
    const out = execFileSync('pnpm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: join(root, dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const report = JSON.parse(out) as { name: string; files: { path: string }[] };
    const files = report.files.map((f) => f.path);
    shipped.set(report.name, files);
  }
  return shipped;
}

/** Markdown text without fenced blocks and code spans, where a bracket and parenthesis are not a link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of the README that is neither a URL with a scheme nor a mail address. */
export function relativeLinks(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const defined = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)];
  return [...inline, ...defined]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** GitHub's (and npm's) anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, title] of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (title as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * The links of `packageDir`'s README that lead nowhere in the tarball, each with the reason: a path that is not
 * shipped (or leaves the package), or an anchor that no heading of the README makes.
 */
export function deadLinks(packageDir: string, shipped: string[]): string[] {
  const markdown = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const anchors = headingAnchors(markdown);
  const files = new Set(shipped);
  const dead: string[] = [];
  for (const target of relativeLinks(markdown)) {
    const [path = '', anchor] = target.split('#', 2);
    if (path === '') {
      if (anchor !== undefined && !anchors.has(decodeURIComponent(anchor))) {
        dead.push(`${target}: no heading of the README has this anchor`);
      }
      continue;
    }
    const resolved = posix.normalize(decodeURIComponent(path)).replace(/\/$/, '');
    const inside = !resolved.startsWith('../') && resolved !== '..' && !resolved.startsWith('/');
    const found = inside && (files.has(resolved) || shipped.some((file) => file.startsWith(`${resolved}/`)));
    if (!found) dead.push(`${target}: not in the package tarball`);
  }
  return dead;
}
