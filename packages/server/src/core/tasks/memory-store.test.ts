// MemoryTaskStore passes the shared TaskStore suite (the Redis store runs the same one); its TTL on fake timers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storedTask, taskStoreSuite } from '../../../test/support/task-store-suite.js';
import { MemoryTaskStore } from './memory-store.js';

taskStoreSuite('MemoryTaskStore', { make: () => new MemoryTaskStore() });

describe('MemoryTaskStore TTL (fake time)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a task until its TTL, not after, and its sweep lets go of it without a read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 });
    const store = new MemoryTaskStore();
    const read = store.create(storedTask('p', store.nodeId, 5000), 1);
    expect(read).toBe(true);
    const unread = storedTask('p2', store.nodeId, 5000);
    store.create(unread, 1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(store.size).toBe(2);
    expect(store.create(storedTask('p', store.nodeId), 1)).toBe(false); // still counts against the limit
    await vi.advanceTimersByTimeAsync(1);
    expect(store.read(unread.taskId)).toBeUndefined();
    expect(store.create(storedTask('p', store.nodeId), 1)).toBe(true); // expired: counts no more
    await vi.advanceTimersByTimeAsync(1000); // the next sweep
    expect(store.size).toBe(1);
    store.close();
  });
});
