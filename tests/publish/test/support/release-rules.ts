// The versions `.changeset/config.json` promises, written down on their own so the release test can hold
// changesets to them: each package its own highest bump, dependents moved only when a release leaves their range.
import { type Bump, bumped, type WorkspacePackage } from './release-repo.js';

/** Each package's version, by name. */
export const versions = (pkgs: WorkspacePackage[]): Map<string, string> =>
  new Map(pkgs.map((p) => [p.name, p.version]));

/** `1.2.3` as numbers; a part left out (`<1`) is 0. */
const parse = (v: string): [number, number, number] => {
  const [major = 0, minor = 0, patch = 0] = v.split('.').map(Number);
  return [major, minor, patch];
};
const atLeast = (a: number[], b: number[]) =>
  a[0]! !== b[0]! ? a[0]! > b[0]! : a[1]! !== b[1]! ? a[1]! > b[1]! : a[2]! >= b[2]!;

/** Whether `version` satisfies a manifest range as changesets reads it (`workspace:^` is `^` of `current`). */
function inRange(range: string, current: string, version: string): boolean {
  let r = range.replace(/^workspace:/, '');
  if (r === '*' || r === '') return true;
  if (r === '^') r = `^${current}`;
  const v = parse(version);
  if (r.startsWith('>=')) {
    const [low, high] = r.split(/\s+/);
    if (!atLeast(v, parse(low!.slice(2)))) return false;
    if (high === undefined) return true;
    if (!high.startsWith('<')) throw new Error(`the release test cannot read the range ${range}`);
    return !atLeast(v, parse(high.slice(1)));
  }
  if (r.startsWith('^')) {
    const b = parse(r.slice(1));
    return atLeast(v, b) && (b[0] > 0 ? v[0] === b[0] : v[0] === 0 && v[1] === b[1]);
  }
  if (/^\d+\.\d+\.\d+$/.test(r)) return version === r;
  throw new Error(`the release test cannot read the range ${range}; teach inRange() about it`);
}

/**
 * The versions `.changeset/config.json` promises for `bumps`: each package its own highest bump; a package one of
 * whose dependencies leaves its range gets a patch, one whose peer dependency leaves its range a major
 * (`onlyUpdatePeerDependentsWhenOutOfRange`); a release within range moves no dependent
 * (`updateInternalDependencies: patch` only rewrites the ranges of packages released anyway).
 */
export function expectedVersions(pkgs: WorkspacePackage[], bumps: Map<string, Bump>): Map<string, string> {
  const order: (Bump | undefined)[] = [undefined, 'patch', 'minor', 'major'];
  const type = new Map(bumps);
  const raise = (name: string, to: Bump) => {
    if (order.indexOf(to) > order.indexOf(type.get(name))) type.set(name, to);
  };
  const current = versions(pkgs);
  const leaves = (dep: string, range: string) => {
    const t = type.get(dep);
    const now = current.get(dep);
    return t !== undefined && now !== undefined && !inRange(range, now, bumped(now, t));
  };
  for (let changed = true; changed; ) {
    const before = JSON.stringify([...type]);
    for (const p of pkgs) {
      for (const [dep, range] of Object.entries(p.dependencies))
        if (leaves(dep, range)) raise(p.name, 'patch');
      for (const [dep, range] of Object.entries(p.peerDependencies))
        if (leaves(dep, range)) raise(p.name, 'major');
    }
    changed = JSON.stringify([...type]) !== before;
  }
  return new Map(
    pkgs.map((p) => [p.name, type.has(p.name) ? bumped(p.version, type.get(p.name)!) : p.version]),
  );
}
