// The one keep-alive timer, on fake timers: a comment every `ms` to each stream held, none once the last one left
// or after release, none at all with 0; a ping that throws stops no other.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeepAlive, type Pingable } from './keep-alive.js';

function target(log: string[], name: string, fail = false): Pingable {
  return {
    ping: () => {
      log.push(`${name}@${Date.now()}`);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('KeepAlive (fake time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pings every stream each interval, and keeps going after a ping throws', async () => {
    const log: string[] = [];
    const errors: string[] = [];
    const keepAlive = new KeepAlive(50, (error) => errors.push((error as Error).message));
    keepAlive.add(target(log, 'a', true));
    keepAlive.add(target(log, 'b'));
    await vi.advanceTimersByTimeAsync(49);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['a@50', 'b@50']);
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['a@50', 'b@50', 'a@100', 'b@100', 'a@150', 'b@150']);
    expect(errors).toEqual(['a failed', 'a failed', 'a failed']);
    expect(vi.getTimerCount()).toBe(1); // one timer for every stream
    keepAlive.release();
  });

  it('stops the timer when the last stream leaves, and starts it again for a new one', async () => {
    const log: string[] = [];
    const keepAlive = new KeepAlive(50);
    const a = target(log, 'a');
    const b = target(log, 'b');
    keepAlive.add(a);
    keepAlive.add(b);
    keepAlive.remove(a);
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toEqual(['b@50']);
    keepAlive.remove(b);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(log).toEqual(['b@50']);
    keepAlive.add(a);
    await vi.advanceTimersByTimeAsync(50);
    expect(log).toEqual(['b@50', 'a@600']);
    keepAlive.release();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(log).toEqual(['b@50', 'a@600']);
  });

  it('writes nothing with 0', async () => {
    const log: string[] = [];
    const keepAlive = new KeepAlive(0);
    keepAlive.add(target(log, 'a'));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(log).toEqual([]);
  });
});
