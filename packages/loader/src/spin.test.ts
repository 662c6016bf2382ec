// The spin policy's two brakes: backing off after misses, and no spinning while the event loop is busy.
import { describe, expect, it } from 'vitest';
import { LoopLoad, SpinPolicy } from './spin.js';

type U = { idle: number; active: number; utilization: number };

/** A LoopLoad on a hand-driven clock whose loop reports `share` busy for each window. */
function loopAt(shares: number[]) {
  let t = 0;
  let active = 0;
  let idle = 0;
  const load = new LoopLoad(
    () => t,
    (since?: U) => {
      if (since === undefined) return { idle, active, utilization: 0 };
      const a = active - since.active;
      const i = idle - since.idle;
      return { idle: i, active: a, utilization: a / (a + i) };
    },
  );
  const advance = (ms: number) => {
    const share = shares.shift() ?? 0;
    t += ms;
    active += ms * share;
    idle += ms * (1 - share);
  };
  return { load, advance };
}

describe('LoopLoad', () => {
  it('calls a loop busy only after a window in which it was busy more than 85 % of the time', () => {
    const { load, advance } = loopAt([0.95, 0.95, 0.4]);
    expect(load.busy()).toBe(false); // nothing measured yet
    advance(6);
    expect(load.busy()).toBe(true);
    advance(1); // within the window: the verdict is kept
    expect(load.busy()).toBe(true);
    advance(6);
    expect(load.busy()).toBe(false);
  });
});

describe('LoopLoad and spins', () => {
  it('does not count the time spent spinning as work', () => {
    let t = 0;
    let active = 0;
    const load = new LoopLoad(
      () => t,
      (since?: U) =>
        since === undefined
          ? { idle: 0, active, utilization: 0 }
          : { idle: t - active - since.idle, active: active - since.active, utilization: 0 },
    );
    load.busy();
    // 10 ms, all of it active, 9 ms of which were a spin: the loop had 90 % to spare.
    load.timed(() => {
      t += 9;
      active += 9;
    });
    t += 1;
    active += 1;
    expect(load.busy()).toBe(false);
  });
});

describe('SpinPolicy', () => {
  it('does not spin while the loop is busy, however few calls are in flight', () => {
    const { load, advance } = loopAt([0.99]);
    const policy = new SpinPolicy(load);
    expect(policy.wanted(1)).toBe(true);
    advance(10);
    expect(policy.wanted(1)).toBe(false);
  });

  it('spins for few calls in flight, never for many, and backs off 1, 2, 4 after misses in a row', () => {
    const policy = new SpinPolicy(loopAt([]).load);
    expect(policy.wanted(64)).toBe(false);
    expect(policy.wanted(1)).toBe(true);
    policy.record(false);
    expect([policy.wanted(1), policy.wanted(1)]).toEqual([false, true]);
    policy.record(false);
    expect([policy.wanted(1), policy.wanted(1), policy.wanted(1)]).toEqual([false, false, true]);
    policy.record(true);
    expect(policy.wanted(1)).toBe(true);
  });
});
