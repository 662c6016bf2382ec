// The one timer that sends held SSE heads, on fake timers: a held stream leaves between `ms` and `2 * ms` after it
// was held, once; a throwing flush is reported and stops no other; 0 and release flush at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Flushable, HeadHold } from './head-hold.js';

function stream(log: string[], name: string, fail = false): Flushable {
  return {
    flush: () => {
      log.push(`${name}@${Date.now()}`);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('HeadHold (fake time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('flushes each held stream once, after at least the hold, and keeps going after a flush throws', async () => {
    const log: string[] = [];
    const errors: string[] = [];
    const hold = new HeadHold(10, (error) => errors.push((error as Error).message));
    hold.hold(stream(log, 'a', true));
    hold.hold(stream(log, 'b'));
    await vi.advanceTimersByTimeAsync(9);
    expect(log).toEqual([]); // nothing leaves before the hold
    await vi.advanceTimersByTimeAsync(4); // at 13: held at 3 is too fresh to leave at the first tick
    hold.hold(stream(log, 'c'));
    await vi.advanceTimersByTimeAsync(7); // at 20: a and b, held a full tick, leave
    expect(log).toEqual(['a@20', 'b@20']);
    expect(errors).toEqual(['a failed']);
    await vi.advanceTimersByTimeAsync(9);
    expect(log).toEqual(['a@20', 'b@20']); // c was held at 13: not before 23, and the next tick is 30
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['a@20', 'b@20', 'c@30']);
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(0); // idle: the timer is not kept armed
    hold.hold(stream(log, 'd')); // and is armed again for the next one
    await vi.advanceTimersByTimeAsync(20);
    expect(log).toEqual(['a@20', 'b@20', 'c@30', 'd@60']);
    hold.release();
  });

  it('flushes at once with a hold of 0, and everything still held on release', () => {
    const log: string[] = [];
    new HeadHold(0).hold(stream(log, 'now'));
    expect(log).toEqual(['now@0']);
    const hold = new HeadHold(60_000);
    hold.hold(stream(log, 'x'));
    hold.hold(stream(log, 'y'));
    hold.release();
    expect(log).toEqual(['now@0', 'x@0', 'y@0']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
