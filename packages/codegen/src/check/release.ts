// What the pending changesets (and the package version) say about the next @entropic-mcp/abi-headers release.

export const ABI_HEADERS_PACKAGE = '@entropic-mcp/abi-headers';

export type BumpType = 'none' | 'patch' | 'minor' | 'major';
const ORDER: BumpType[] = ['none', 'patch', 'minor', 'major'];

export function atLeast(have: BumpType, need: BumpType): boolean {
  return ORDER.indexOf(have) >= ORDER.indexOf(need);
}

export interface PackageRelease {
  /** The bump the release plan gives the package (all pending changesets, with dependents). */
  type: BumpType;
  /** Ids of the changesets that name the package, with the bump each asks for. */
  changesets: { id: string; type: BumpType }[];
}

/**
 * Reads the release plan of the workspace at `root` with @changesets/get-release-plan, which also
 * sees changeset files not yet added to git (unlike `changeset status --output`).
 */
export async function planFor(root: string, pkg = ABI_HEADERS_PACKAGE): Promise<PackageRelease> {
  // Loaded only when a verdict needs the plan: it costs a few hundred milliseconds to import.
  const { default: getReleasePlan } = await import('@changesets/get-release-plan');
  const plan = await getReleasePlan(root);
  const release = plan.releases.find((r) => r.name === pkg);
  const changesets = plan.changesets.flatMap((c) =>
    c.releases.filter((r) => r.name === pkg).map((r) => ({ id: c.id, type: r.type as BumpType })),
  );
  return { type: (release?.type as BumpType | undefined) ?? 'none', changesets };
}

/** A release version as it is written in package.json, tags and record folders (no pre-release). */
export const RELEASE_VERSION = /^\d+\.\d+\.\d+$/;

function semverKey(version: string): number[] {
  return version
    .split(/[.+-]/)
    .slice(0, 3)
    .map((n) => Number.parseInt(n, 10) || 0);
}

/** Orders two semver versions by major, minor, patch (negative when `a` is lower). */
export function compareVersions(a: string, b: string): number {
  const x = semverKey(a);
  const y = semverKey(b);
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
}

/** The bump between two semver versions (`none` when equal or lower). */
export function versionBump(before: string, after: string): BumpType {
  const a = semverKey(before);
  const b = semverKey(after);
  for (let i = 0; i < 3; i++) {
    if (b[i]! > a[i]!) return (['major', 'minor', 'patch'] as const)[i]!;
    if (b[i]! < a[i]!) return 'none';
  }
  return 'none';
}
