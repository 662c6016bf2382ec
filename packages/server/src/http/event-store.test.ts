import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from './event-store.js';

const msg = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

describe('MemoryEventStore', () => {
  it('replays only the same stream after the given id, skipping priming events', () => {
    const store = new MemoryEventStore();
    const prime = store.append('s.1', '');
    const a = store.append('s.1', msg(1));
    store.append('s.2', msg(99));
    const b = store.append('s.1', msg(2));
    expect(store.after(prime)).toEqual({
      streamId: 's.1',
      events: [
        { id: a, data: msg(1) },
        { id: b, data: msg(2) },
      ],
    });
    expect(store.after(a)?.events.map((e) => e.id)).toEqual([b]);
    expect(store.after(b)).toEqual({ streamId: 's.1', events: [] });
  });

  it('answers undefined for unknown, malformed, future and evicted ids', () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 2 });
    const first = store.append('s.1', msg(1));
    store.append('s.1', msg(2));
    store.append('s.1', msg(3));
    store.append('s.1', msg(4));
    expect(store.after('nope')).toBeUndefined();
    expect(store.after('s.1.x')).toBeUndefined();
    expect(store.after('s.1.99')).toBeUndefined();
    expect(store.after(first)).toBeUndefined();
    expect(store.after('s.1.1')?.events.map((e) => e.data)).toEqual([msg(3), msg(4)]);
  });

  it('keeps at most maxStreams streams, dropping the oldest', () => {
    const store = new MemoryEventStore({ maxStreams: 3 });
    const ids = [1, 2, 3, 4].map((i) => store.append(`s.${i}`, msg(i)));
    expect(store.size).toBe(3);
    expect(store.after(ids[0] as string)).toBeUndefined();
    expect(store.after(ids[3] as string)).toEqual({ streamId: 's.4', events: [] });
  });

  it('forgets every stream of a session by prefix', () => {
    const store = new MemoryEventStore();
    store.append('abc.0', msg(1));
    store.append('abc.1', msg(2));
    const keep = store.append('abd.0', msg(3));
    store.forget('abc.');
    expect(store.size).toBe(1);
    expect(store.after(keep)).toBeDefined();
  });

  it('keeps the data under maxBytes by dropping the oldest streams', () => {
    const store = new MemoryEventStore({ maxBytes: 100 });
    const old = store.append('s.1', 'x'.repeat(60));
    store.append('s.2', 'y'.repeat(30));
    expect(store.bytes).toBe(90);
    store.append('s.3', 'z'.repeat(30));
    expect(store.bytes).toBe(60);
    expect(store.after(old)).toBeUndefined();
    store.forget('s.');
    expect(store.bytes).toBe(0);
  });

  it('evicts in constant time and keeps its bookkeeping proportional to what it holds', () => {
    const store = new MemoryEventStore({ maxStreams: 1000 });
    for (let i = 0; i < 50_000; i++) store.append(`a.${i}`, 'x');
    expect(store.size).toBe(1000);
    expect(store.orderLength).toBeLessThanOrEqual(3 * 1000 + 1024);
    for (let session = 0; session < 2000; session++) {
      store.append(`s${session}.0`, 'y');
      store.forget(`s${session}.`);
    }
    expect(store.orderLength).toBeLessThanOrEqual(3 * store.size + 1024);
  });

  it('rejects nonsensical bounds', () => {
    expect(() => new MemoryEventStore({ maxStreams: 0 })).toThrow(/maxStreams must be a positive integer/);
  });
});
