// The spin policy: which bursts are lone (few calls in flight now and just before, on a loop that is not busy),
// and backing off after spins that found nothing.
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
  it('calls no burst lone while the loop is busy, however few calls are in flight', () => {
    const { load, advance } = loopAt([0.99]);
    const policy = new SpinPolicy(load);
    expect(policy.lone(1)).toBe(true);
    advance(10);
    expect(policy.lone(1)).toBe(false);
  });

  it('calls bursts with few calls in flight lone from the first, never one with many', () => {
    const policy = new SpinPolicy(loopAt([]).load);
    expect([policy.lone(1), policy.lone(2), policy.lone(1)]).toEqual([true, true, true]);
    expect(policy.lone(64)).toBe(false);
  });

  it('calls a small burst after a large one lone only once the halved peak is down to 2 (a window edge)', () => {
    const policy = new SpinPolicy(loopAt([]).load);
    expect(policy.lone(64)).toBe(false);
    // The first request of a client's next window, arriving alone: the peak is 32, 16, 8, 4, then 2.
    expect([1, 1, 1, 1, 1].map((n) => policy.lone(n))).toEqual([false, false, false, false, true]);
    // A window that trickles in one request per burst keeps the peak up as it grows.
    const trickle = new SpinPolicy(loopAt([]).load);
    trickle.lone(64);
    expect([1, 2, 3, 4, 5, 6].map((n) => trickle.lone(n))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('backs off 1, 2, 4 lone bursts after spins that found nothing, and spins again after one that did', () => {
    const policy = new SpinPolicy(loopAt([]).load);
    expect(policy.wanted()).toBe(true);
    policy.record(false);
    expect([policy.wanted(), policy.wanted()]).toEqual([false, true]);
    policy.record(false);
    expect([policy.wanted(), policy.wanted(), policy.wanted()]).toEqual([false, false, true]);
    policy.record(true);
    expect(policy.wanted()).toBe(true);
  });
});
