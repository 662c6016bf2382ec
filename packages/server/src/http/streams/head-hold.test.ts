// The one timer that sends held SSE heads: every held stream leaves once, a throwing one is reported.
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../../test/support/wait.js';
import { type Flushable, HeadHold } from './head-hold.js';

function stream(log: string[], name: string, fail = false): Flushable {
  return {
    flush: () => {
      log.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('HeadHold', () => {
  it('flushes each held stream once, after the hold, and keeps going after a flush throws', async () => {
    const log: string[] = [];
    const errors: string[] = [];
    const hold = new HeadHold(5, (error) => errors.push((error as Error).message));
    hold.hold(stream(log, 'a', true));
    hold.hold(stream(log, 'b'));
    expect(log).toEqual([]); // nothing leaves at once
    await waitUntil(() => log.length === 2, 'the held heads');
    expect(log).toEqual(['a', 'b']);
    expect(errors).toEqual(['a failed']);
    hold.hold(stream(log, 'c')); // the timer is armed again after it went idle
    await waitUntil(() => log.length === 3, 'the head held after the timer went idle');
    expect(log).toEqual(['a', 'b', 'c']);
    hold.release();
  });

  it('flushes at once with a hold of 0, and everything still held on release', () => {
    const log: string[] = [];
    new HeadHold(0).hold(stream(log, 'now'));
    expect(log).toEqual(['now']);
    const hold = new HeadHold(60_000);
    hold.hold(stream(log, 'x'));
    hold.hold(stream(log, 'y'));
    hold.release();
    expect(log).toEqual(['now', 'x', 'y']);
  });
});
