// Describes, in words a developer can act on, how two locked subsets of the ABI model differ.
//
// The subsets are plain JSON. Arrays whose elements all carry a `name` are matched by name, so a
// renamed parameter reads as "renamed", a new enumerator as "added", a reordered member as "moved".

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface SubsetChange {
  /** Where: names and keys from the root, e.g. ['entropic_mcp_server_execute', 'params', 'tool_name']. */
  path: string[];
  kind: 'added' | 'removed' | 'changed' | 'moved';
  /** Human wording of the change. */
  text: string;
  /** True for an element appended after the last one of an `enumerators` list, with a larger value. */
  appendedEnumerator?: boolean;
}

const isObj = (v: unknown): v is { [k: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const named = (a: Json[]): a is { [k: string]: Json }[] =>
  a.length > 0 && a.every((e) => isObj(e) && typeof e.name === 'string');

/** A compact rendering, in C spelling when the value is a model type. */
export function show(v: Json | undefined): string {
  if (isObj(v)) {
    if (v.kind === 'builtin' && typeof v.spelling === 'string') return v.spelling;
    if (v.kind === 'typedef' && typeof v.name === 'string') return v.name;
    if (v.kind === 'const-pointer' && typeof v.to === 'string') return `const ${v.to}*`;
    if (v.kind === 'function-pointer' && Array.isArray(v.params)) {
      const ps = v.params.map((p) => (isObj(p) && !isType(p) && 'type' in p ? show(p.type) : show(p)));
      return `${show(v.returns)} (*)(${ps.length ? ps.join(', ') : 'void'})`;
    }
  }
  return JSON.stringify(v);
}

const TYPE_KINDS = ['builtin', 'typedef', 'const-pointer', 'function-pointer'];
const isType = (v: unknown) => isObj(v) && typeof v.kind === 'string' && TYPE_KINDS.includes(v.kind);

function where(path: string[]): string {
  return path.length ? path.join(' › ') : '(root)';
}

function diffNamed(
  a: { [k: string]: Json }[],
  b: { [k: string]: Json }[],
  path: string[],
  out: SubsetChange[],
) {
  const key = path[path.length - 1] ?? '';
  const aNames = a.map((e) => e.name as string);
  const bNames = b.map((e) => e.name as string);
  const oldMax = Math.max(
    ...a.map((e) => (typeof e.value === 'number' ? e.value : Number.NEGATIVE_INFINITY)),
  );
  const prefixKept = aNames.every((n, i) => bNames[i] === n);
  // Same length, one name swapped at the same index: a rename, reported as such.
  if (a.length === b.length && aNames.filter((n, i) => bNames[i] !== n).length === 1) {
    const i = aNames.findIndex((n, j) => bNames[j] !== n);
    out.push({
      path: [...path, aNames[i]!],
      kind: 'changed',
      text: `${where(path)}: "${aNames[i]}" renamed to "${bNames[i]}"`,
    });
    const { name: _x, ...restA } = a[i]!;
    const { name: _y, ...restB } = b[i]!;
    diffValue(restA, restB, [...path, bNames[i]!], out);
    return;
  }
  for (const [i, e] of b.entries()) {
    const j = aNames.indexOf(bNames[i]!);
    const p = [...path, bNames[i]!];
    if (j < 0) {
      const appended =
        key === 'enumerators' &&
        prefixKept &&
        i >= a.length &&
        typeof e.value === 'number' &&
        e.value > oldMax;
      out.push({
        path: p,
        kind: 'added',
        text: `${where(path)}: "${bNames[i]}" added${appended ? ' after the last one' : ` at position ${i + 1}`}${'value' in e ? ` (value ${show(e.value)})` : ''}`,
        appendedEnumerator: appended,
      });
      continue;
    }
    if (j !== i)
      out.push({
        path: p,
        kind: 'moved',
        text: `${where(path)}: "${bNames[i]}" moved from position ${j + 1} to ${i + 1}`,
      });
    diffValue(a[j]!, e, p, out);
  }
  for (const n of aNames) {
    if (!bNames.includes(n))
      out.push({ path: [...path, n], kind: 'removed', text: `${where(path)}: "${n}" removed` });
  }
}

function diffValue(a: Json | undefined, b: Json | undefined, path: string[], out: SubsetChange[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (Array.isArray(a) && Array.isArray(b) && (named(a) || a.length === 0) && (named(b) || b.length === 0)) {
    diffNamed(a as { [k: string]: Json }[], b as { [k: string]: Json }[], path, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [i, e] of a.entries()) diffValue(e, b[i], [...path, `#${i + 1}`], out);
    return;
  }
  if (isObj(a) && isObj(b) && !(isType(a) && isType(b))) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diffValue(a[k], b[k], [...path, k], out);
    return;
  }
  if (a === undefined) out.push({ path, kind: 'added', text: `${where(path)} added: ${show(b)}` });
  else if (b === undefined)
    out.push({ path, kind: 'removed', text: `${where(path)} removed (was ${show(a)})` });
  else out.push({ path, kind: 'changed', text: `${where(path)} changed from ${show(a)} to ${show(b)}` });
}

/** Every difference between two locked subsets, in the order they appear. */
export function diffSubsets(before: unknown, after: unknown): SubsetChange[] {
  const out: SubsetChange[] = [];
  diffValue(before as Json, after as Json, [], out);
  return out;
}

/** True when the only differences are enumerators appended after the last one (an additive change). */
export function onlyAppendedEnumerators(changes: SubsetChange[]): boolean {
  return changes.length > 0 && changes.every((c) => c.appendedEnumerator === true);
}
