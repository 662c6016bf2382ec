// The in-flight table of a session against a Map fed the same operations: same answers, through growth,
// shrinking and the back-shifting of deletions; and a delete bound to a value.
import { describe, expect, it } from 'vitest';
import type { RequestId } from './handler-types.js';
import { IdTable } from './id-table.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x1_0000_0000;
  };
}

function anyId(next: () => number): RequestId {
  const n = Math.floor(next() * 300);
  switch (Math.floor(next() * 4)) {
    case 0:
      return n;
    case 1:
      return String(n); // never the same id as the number n
    case 2:
      return n + 0.5;
    default:
      return `req-${n}-${'x'.repeat(n % 7)}`;
  }
}

describe('IdTable', () => {
  it('answers has, get, set, delete and size as a Map does, through growth and shrinking', () => {
    const next = random(7);
    const table = new IdTable<number>();
    const model = new Map<RequestId, number>();
    for (let step = 0; step < 60_000; step++) {
      const id = anyId(next);
      // Phases that mostly add (about 840 of the 1,200 ids present: 2,048 slots), then mostly remove (about 120:
      // the table shrinks back), so growth, shrinking and back-shifting all run.
      const adding = Math.floor(step / 10_000) % 2 === 0 ? next() < 0.7 : next() < 0.1;
      if (adding) {
        table.set(id, step);
        model.set(id, step);
      } else {
        expect(table.delete(id)).toBe(model.delete(id));
      }
      expect(table.size).toBe(model.size);
      const probe = anyId(next);
      expect(table.has(probe)).toBe(model.has(probe));
      expect(table.get(probe)).toBe(model.get(probe));
    }
    expect(table.values().sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
    for (const [id, value] of model) expect(table.get(id)).toBe(value);
  });

  it('tells apart ids that print alike: 1, "1", 1.5 and "1.5"', () => {
    const table = new IdTable<string>();
    table.set(1, 'number');
    table.set('1', 'string');
    table.set(1.5, 'fraction');
    table.set('1.5', 'fraction text');
    expect([table.get(1), table.get('1'), table.get(1.5), table.get('1.5')]).toEqual([
      'number',
      'string',
      'fraction',
      'fraction text',
    ]);
    expect(table.delete('1')).toBe(true);
    expect(table.get(1)).toBe('number');
    expect(table.has('1')).toBe(false);
  });

  it('deletes an entry bound to a value only while it holds that value', () => {
    const table = new IdTable<object>();
    const first = {};
    const second = {};
    table.set(3, first);
    table.set(3, second); // the id was reused after the first request ended
    expect(table.delete(3, first)).toBe(false);
    expect(table.get(3)).toBe(second);
    expect(table.delete(3, second)).toBe(true);
    expect(table.size).toBe(0);
  });

  it('is empty after clear, and usable again', () => {
    const table = new IdTable<number>();
    for (let i = 0; i < 100; i++) table.set(`id${i}`, i);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.has('id5')).toBe(false);
    table.set('id5', 5);
    expect(table.get('id5')).toBe(5);
  });
});
