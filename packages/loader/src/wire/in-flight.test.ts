// The in-flight queue of one plugin instance: answers taken in order, an out-of-order id still found, drain for a crash.
import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

describe('InFlight', () => {
  it('takes answers oldest first and reports the head and size', () => {
    const q = new InFlight<string>();
    for (let id = 1; id <= 3; id++) q.push(id, `c${id}`);
    expect(q.size).toBe(3);
    expect(q.head()).toBe('c1');
    expect(q.take(1)).toBe('c1');
    expect(q.head()).toBe('c2');
    expect(q.take(2)).toBe('c2');
    expect(q.take(3)).toBe('c3');
    expect(q.size).toBe(0);
    expect(q.head()).toBeUndefined();
  });

  it('finds an id that is not the head, and answers undefined for an unknown one', () => {
    const q = new InFlight<string>();
    q.push(7, 'a');
    q.push(8, 'b');
    q.push(9, 'c');
    expect(q.has(8)).toBe(true);
    expect(q.take(8)).toBe('b');
    expect(q.has(8)).toBe(false);
    expect(q.take(42)).toBeUndefined();
    expect(q.drain()).toEqual(['a', 'c']);
    expect(q.size).toBe(0);
  });

  it('stays correct across many pushes and takes (compaction)', () => {
    const q = new InFlight<number>();
    let next = 1;
    let expected = 1;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) q.push(next, next++);
      for (let i = 0; i < 90; i++) expect(q.take(expected)).toBe(expected++);
    }
    expect(q.size).toBe(500);
    expect(q.head()).toBe(expected);
    expect(q.drain()).toEqual(Array.from({ length: 500 }, (_, i) => expected + i));
  });
});
