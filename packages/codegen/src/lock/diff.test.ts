// Tests of diffLocked: additive versus breaking changes between lock entries.
import { describe, expect, it } from 'vitest';
import { diffLocked } from './diff.js';
import type { LockedSubset } from './subset.js';

const int = { kind: 'builtin', spelling: 'int' } as const;
const base = (): LockedSubset => ({
  handles: [{ name: 'h_t', tag: 'h' }],
  functions: [{ name: 'f', returns: int, params: [int] }],
  structs: [{ name: 's_t', members: [{ name: 'a', type: int }] }],
  enums: [
    {
      name: 'e_t',
      enumerators: [
        { name: 'A', value: 0 },
        { name: 'B', value: 1 },
      ],
    },
  ],
  defines: [],
});

describe('diffLocked', () => {
  it('reports identical subsets as same', () => {
    expect(diffLocked(base(), base())).toEqual({ kind: 'same', additive: [], breaking: [] });
  });

  it('treats appended enumerators with larger values as additive', () => {
    const after = base();
    after.enums[0]!.enumerators.push({ name: 'C', value: 2 });
    expect(diffLocked(base(), after)).toEqual({
      kind: 'additive',
      additive: ['enum e_t: appended C = 2'],
      breaking: [],
    });
  });

  it('treats an appended enumerator reusing a value as breaking', () => {
    const after = base();
    after.enums[0]!.enumerators.push({ name: 'C', value: 1 });
    expect(diffLocked(base(), after).kind).toBe('breaking');
  });

  it('names removed and added declarations', () => {
    const after = base();
    after.functions = [{ name: 'g', returns: int, params: [] }];
    const diff = diffLocked(base(), after);
    expect(diff.kind).toBe('breaking');
    expect(diff.breaking).toEqual(['function f removed (was: int f(int))', 'function g added: int g(void)']);
  });

  it('shows a changed struct before and after', () => {
    const after = base();
    after.structs[0]!.members.push({ name: 'b', type: int });
    expect(diffLocked(base(), after).breaking).toEqual([
      'struct s_t changed: struct s_t { int a; } → struct s_t { int a; int b; }',
    ]);
  });

  it('a removed enumerator or a changed handle is breaking', () => {
    const after = base();
    after.enums[0]!.enumerators.pop();
    after.handles[0]!.tag = 'other';
    expect(diffLocked(base(), after).breaking).toHaveLength(2);
  });

  it('a new optional entry point, struct, enum, handle or macro is additive; a new required entry point is not', () => {
    const after = base();
    after.functions.push({ name: 'g', optional: true, returns: int, params: [] });
    after.structs.push({ name: 't_t', members: [{ name: 'x', type: int }] });
    after.enums.push({ name: 'f_t', enumerators: [{ name: 'Z', value: 0 }] });
    after.handles.push({ name: 'k_t', tag: 'k' });
    after.defines.push({ name: 'N', value: 1 });
    const diff = diffLocked(base(), after);
    expect(diff.kind).toBe('additive');
    expect(diff.additive).toContain('function g added: (optional) int g(void)');
    after.functions.push({ name: 'r', returns: int, params: [] });
    expect(diffLocked(base(), after).breaking).toEqual(['function r added: int r(void)']);
  });

  it('members appended to a growable struct are additive; anything else done to it is breaking', () => {
    const growable = (members: { name: string; type: typeof int }[]): LockedSubset => ({
      ...base(),
      structs: [{ name: 'c_t', growable: true, members }],
    });
    const a = { name: 'a', type: int };
    const b = { name: 'b', type: int };
    expect(diffLocked(growable([a]), growable([a, b]))).toEqual({
      kind: 'additive',
      additive: ['growable struct c_t: appended int b'],
      breaking: [],
    });
    expect(diffLocked(growable([a, b]), growable([b, a])).kind).toBe('breaking');
    expect(diffLocked(growable([a, b]), growable([a])).kind).toBe('breaking');
    const plain = base();
    expect(diffLocked(plain, { ...plain, structs: [{ name: 's_t', members: [a, b] }] }).kind).toBe(
      'breaking',
    );
    const flipped = growable([a]);
    flipped.structs[0] = { name: 'c_t', members: [a, b] };
    expect(diffLocked(growable([a]), flipped).kind).toBe('breaking');
  });
});
