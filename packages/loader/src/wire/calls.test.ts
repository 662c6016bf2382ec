// The bursts of a CallTable: how many are open at the instance, and when the outbox may leave as another.
import { describe, expect, it } from 'vitest';
import { Call, CallTable, MAX_OPEN_BURSTS, SECOND_BURST_BELOW } from './calls.js';
import { Op, Status } from './frames.js';

const site = { path: '/x/p.so', plugin: 'p' };

/** A configure call whose outcome is counted. */
function call(outcomes: string[]): Call {
  return new Call(
    Op.configure,
    { answered: () => outcomes.push('ok'), failed: () => outcomes.push('failed') },
    undefined,
    '{}',
  );
}

/** The code answer (0) to call `id`, as the instance writes it. */
function answer(table: CallTable, id: number): void {
  const buf = Buffer.alloc(4);
  table.answer(id, Status.code, buf, 0, 4);
}

describe('CallTable bursts', () => {
  it(`lets at most ${MAX_OPEN_BURSTS} bursts be open, and the next leave when the oldest is answered`, () => {
    expect(MAX_OPEN_BURSTS).toBe(2);
    const outcomes: string[] = [];
    const table = new CallTable(site);
    const ids = (text: string) => [...text.matchAll(/C(\d+)\0/g)].map((m) => Number(m[1]));
    expect(table.mayTakeBurst).toBe(false); // nothing to send
    table.queue(call(outcomes));
    table.queue(call(outcomes));
    const first = ids(table.takeBurst());
    table.queue(call(outcomes));
    expect(table.mayTakeBurst).toBe(true);
    const second = ids(table.takeBurst());
    expect(table.openBursts).toBe(2);
    table.queue(call(outcomes));
    expect(table.mayTakeBurst).toBe(false); // held: two are open
    answer(table, first[0] as number);
    expect(table.mayTakeBurst).toBe(false); // the oldest burst is not wholly answered yet
    answer(table, first[1] as number);
    expect(table.openBursts).toBe(1);
    expect(table.mayTakeBurst).toBe(true);
    expect(ids(table.takeBurst())).toHaveLength(1);
    answer(table, second[0] as number);
    expect(table.openBursts).toBe(1);
    expect(outcomes).toEqual(['ok', 'ok', 'ok']);
  });

  it(`holds a second burst while the instance has ${SECOND_BURST_BELOW} calls or more`, () => {
    const table = new CallTable(site);
    for (let i = 0; i < SECOND_BURST_BELOW; i++) table.queue(call([]));
    table.takeBurst();
    table.queue(call([]));
    expect(table.openBursts).toBe(1);
    expect(table.mayTakeBurst).toBe(false);
  });

  it('counts no burst open once the sent calls are drained (the instance died)', () => {
    const table = new CallTable(site);
    for (let i = 0; i < 2; i++) {
      table.queue(call([]));
      table.takeBurst();
    }
    expect(table.openBursts).toBe(2);
    expect(table.drainSent()).toHaveLength(2);
    expect(table.openBursts).toBe(0);
    table.queue(call([]));
    expect(table.mayTakeBurst).toBe(true);
  });

  it('sends no burst for calls settled while they waited, and counts none open for it', () => {
    const table = new CallTable(site);
    const waiting = call([]);
    table.queue(waiting);
    waiting.settled = true;
    expect(table.takeBurst()).toBe('');
    expect(table.openBursts).toBe(0);
  });
});
