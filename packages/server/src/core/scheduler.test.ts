// The scheduler's one timeout timer, on fake timers: a job times out at its deadline and not before, queued jobs
// get theirs when they start, a finished job is never timed out, 0 turns the timer off and dispose stops it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Schedulable, Scheduler } from './scheduler.js';

/** A job that records when it started and timed out (fake time) and can finish, releasing its slot. */
function job(name: string, log: string[], scheduler: () => Scheduler) {
  const j: Schedulable & { finish(): void } = {
    finished: false,
    deadline: 0,
    slot: -1,
    start: () => log.push(`${name} start @${Date.now()}`),
    timeout: () => {
      log.push(`${name} timeout @${Date.now()}`);
      j.finish();
    },
    finish: () => {
      (j as { finished: boolean }).finished = true;
      scheduler().release(j);
    },
  };
  return j;
}

describe('Scheduler timeout timer (fake time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times a running job out at its deadline, not a millisecond before', async () => {
    const log: string[] = [];
    const s = new Scheduler(4, 10, 100);
    const a = job('a', log, () => s);
    s.submit(a);
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['a start @0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['a start @0', 'a timeout @101']);
    expect(s.runningCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // nothing left running: the timer is not re-armed
  });

  it('keeps one timer for every running job and times each out in start order', async () => {
    const log: string[] = [];
    const s = new Scheduler(4, 10, 100);
    s.submit(job('a', log, () => s));
    await vi.advanceTimersByTimeAsync(30);
    s.submit(job('b', log, () => s));
    await vi.advanceTimersByTimeAsync(30);
    s.submit(job('c', log, () => s));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(log.filter((l) => l.includes('timeout'))).toEqual([
      'a timeout @101',
      'b timeout @131',
      'c timeout @161',
    ]);
  });

  it('gives a queued job its deadline when it starts, not when it was queued', async () => {
    const log: string[] = [];
    const s = new Scheduler(1, 10, 100);
    s.submit(job('a', log, () => s));
    s.submit(job('b', log, () => s));
    expect(s.queued).toBe(1);
    await vi.advanceTimersByTimeAsync(101);
    expect(log).toEqual(['a start @0', 'a timeout @101', 'b start @101']);
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toHaveLength(3); // b started at 101: its deadline is 201
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['a start @0', 'a timeout @101', 'b start @101', 'b timeout @202']);
  });

  it('never times out a job that finished, and re-arms for the next one still running', async () => {
    const log: string[] = [];
    const s = new Scheduler(4, 10, 100);
    const a = job('a', log, () => s);
    s.submit(a);
    await vi.advanceTimersByTimeAsync(50);
    s.submit(job('b', log, () => s));
    a.finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['a start @0', 'b start @50']);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['a start @0', 'b start @50', 'b timeout @151']);
  });

  it('arms no timer with a timeout of 0, and dispose stops an armed one', async () => {
    const log: string[] = [];
    const off = new Scheduler(4, 10, 0);
    off.submit(job('a', log, () => off));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000_000);
    expect(log).toEqual(['a start @0']);
    const on = new Scheduler(4, 10, 100);
    on.submit(job('b', log, () => on));
    expect(vi.getTimerCount()).toBe(1);
    on.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toEqual(['a start @0', 'b start @1000000']);
  });
});
