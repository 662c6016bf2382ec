// Tests of MemoryEventStore bounds and eviction.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { eventStoreSuite } from '../../../test/support/event-store-suite.js';
import { MemoryEventStore } from './event-store.js';

eventStoreSuite('MemoryEventStore', { make: (options) => new MemoryEventStore(options) });

const msg = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

describe('MemoryEventStore', () => {
  it('keeps at most maxStreams streams, dropping the oldest', () => {
    const store = new MemoryEventStore({ maxStreams: 3 });
    const ids = [1, 2, 3, 4].map((i) => store.append(`s.${i}`, msg(i)));
    expect(store.size).toBe(3);
    expect(store.after(ids[0] as string)).toBeUndefined();
    expect(store.after(ids[3] as string)).toEqual({ streamId: 's.4', events: [], complete: false });
  });

  it('drops complete streams first (the oldest first), and those past their retention', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const store = new MemoryEventStore({ maxStreams: 3, retentionMs: 50 });
    const live = store.append('live.0', msg(0));
    const done = [1, 2].map((i) => store.append(`done.${i}`, msg(i), { last: true }));
    store.append('s.3', msg(3)); // full: the oldest complete stream goes, not the oldest one
    expect(store.after(done[0] as string)).toBeUndefined();
    expect(store.after(done[1] as string)?.complete).toBe(true);
    expect(store.after(live)?.complete).toBe(false);
    vi.advanceTimersByTime(51);
    store.append('done.4', msg(4), { last: true }); // a stream completes: those past retention go
    expect(store.after(done[1] as string)).toBeUndefined();
    expect(store.size).toBe(3);
  });

  it('lets go of complete streams once past their retention, not before (fake time)', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 0 });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const store = new MemoryEventStore({ maxStreams: 10, retentionMs: 50 });
    const done = store.append('done.1', msg(1), { last: true });
    const live = store.append('live.2', msg(2));
    vi.advanceTimersByTime(49);
    store.append('done.3', msg(3), { last: true });
    expect(store.after(done)?.complete).toBe(true); // within its retention: kept
    vi.advanceTimersByTime(1);
    store.append('done.4', msg(4), { last: true });
    expect(store.after(done)).toBeUndefined();
    expect(store.after(live)?.complete).toBe(false); // an open stream is not let go
    expect(store.size).toBe(3);
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
