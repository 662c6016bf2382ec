// Tests of diffSubsets: how two locked ABI subsets differ, in C spelling.
import { describe, expect, it } from 'vitest';
import { diffSubsets, onlyAppendedEnumerators } from './subset-diff.js';

const cstr = { kind: 'builtin', spelling: 'const char*' };
const str = { kind: 'builtin', spelling: 'char*' };
const fn = (params: unknown[]) => ({
  kind: 'function',
  name: 'entropic_mcp_server_execute',
  returns: str,
  params,
});
const en = (names: string[]) => ({
  kind: 'enum',
  name: 'entropic_error_t',
  enumerators: names.map((name, value) => ({ name, value })),
});

describe('diffSubsets', () => {
  it('reports nothing for equal subsets', () => {
    expect(diffSubsets({ items: [fn([cstr])] }, { items: [fn([cstr])] })).toEqual([]);
  });

  it('names the declaration and parameter whose type changed, in C spelling', () => {
    const changes = diffSubsets({ items: [fn([cstr, cstr])] }, { items: [fn([cstr, str])] });
    expect(changes.map((c) => c.text)).toEqual([
      'items › entropic_mcp_server_execute › params › #2 changed from const char* to char*',
    ]);
  });

  it('tells an appended enumerator (additive) from a renumbered or removed one', () => {
    const appended = diffSubsets({ items: [en(['A', 'B'])] }, { items: [en(['A', 'B', 'C'])] });
    expect(appended.map((c) => c.text)).toEqual([
      'items › entropic_error_t › enumerators: "C" added after the last one (value 2)',
    ]);
    expect(onlyAppendedEnumerators(appended)).toBe(true);

    const inserted = diffSubsets({ items: [en(['A', 'B'])] }, { items: [en(['A', 'C', 'B'])] });
    expect(onlyAppendedEnumerators(inserted)).toBe(false);
    expect(inserted.map((c) => c.text).join('\n')).toContain('"B" moved from position 2 to 3');

    const removed = diffSubsets({ items: [en(['A', 'B'])] }, { items: [en(['A'])] });
    expect(removed.map((c) => c.text)).toEqual(['items › entropic_error_t › enumerators: "B" removed']);
    expect(onlyAppendedEnumerators(removed)).toBe(false);
  });

  it('reports a renamed member as a rename', () => {
    const s = (m: string) => ({ kind: 'struct', name: 'p', members: [{ name: m, type: cstr }] });
    const changes = diffSubsets({ items: [s('get_docs')] }, { items: [s('get_doc')] });
    expect(changes.map((c) => c.text)).toEqual(['items › p › members: "get_docs" renamed to "get_doc"']);
  });
});
