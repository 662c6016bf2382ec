/**
 * The behaviour every EventStore must have, as one suite: the in-memory store runs it here and
 * `@entropic-mcp/redis` runs it against a real Redis. Results are awaited, so a store may answer
 * synchronously or with promises.
 */

import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../src/http/state/event-store.js';

export interface EventStoreSuiteOptions {
  /** A fresh, empty store; `maxEventsPerStream` bounds each stream's log. */
  make(options: { maxEventsPerStream?: number }): EventStore | Promise<EventStore>;
}

const msg = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

export function eventStoreSuite(name: string, { make }: EventStoreSuiteOptions): void {
  describe(`${name} (EventStore behaviour)`, () => {
    it('replays only the same stream after the given id, skipping priming events', async () => {
      const store = await make({});
      const prime = await store.append('s.1', '');
      const a = await store.append('s.1', msg(1));
      await store.append('s.2', msg(99));
      const b = await store.append('s.1', msg(2));
      expect(await store.after(prime)).toEqual({
        streamId: 's.1',
        events: [
          { id: a, data: msg(1) },
          { id: b, data: msg(2) },
        ],
        complete: false,
      });
      expect((await store.after(a))?.events.map((e) => e.id)).toEqual([b]);
      expect(await store.after(b)).toEqual({ streamId: 's.1', events: [], complete: false });
    });

    it('answers undefined for unknown, malformed, future and evicted ids', async () => {
      const store = await make({ maxEventsPerStream: 2 });
      const ids = [];
      for (let n = 1; n <= 4; n++) ids.push(await store.append('s.1', msg(n)));
      const [first, second] = ids as [string, string];
      expect(await store.after('nope')).toBeUndefined();
      expect(await store.after(`${first}x`)).toBeUndefined();
      expect(await store.after('s.1.x')).toBeUndefined();
      expect(await store.after(`${first.slice(0, first.lastIndexOf('.'))}.99999`)).toBeUndefined();
      expect(await store.after(first)).toBeUndefined();
      expect((await store.after(second))?.events.map((e) => e.data)).toEqual([msg(3), msg(4)]);
    });

    it('numbers a stream whose log is gone on after `previous`: no id twice, and what came since replays', async () => {
      const store = await make({});
      const seq = (id: string) => Number(id.slice(id.lastIndexOf('.') + 1));
      const prime = await store.append('g.1', '');
      const a = await store.append('g.1', msg(1), { previous: prime });
      await store.forget('g.'); // the log is gone (evicted, expired, a Redis restarted empty)
      const b = await store.append('g.1', msg(2), { previous: a });
      const c = await store.append('g.1', msg(3), { previous: b });
      expect([seq(b), seq(c)]).toEqual([seq(a) + 1, seq(a) + 2]);
      expect((await store.after(a))?.events.map((e) => e.data)).toEqual([msg(2), msg(3)]);
      // The same for a stream's last event, and a `previous` of another stream changes nothing.
      await store.forget('g.');
      const d = await store.append('g.1', msg(4), { previous: c, last: true });
      expect(seq(d)).toBe(seq(c) + 1);
      expect(await store.after(c)).toMatchObject({ events: [{ id: d, data: msg(4) }], complete: true });
      expect(seq(await store.append('g.2', msg(5), { previous: c }))).toBeLessThan(seq(a));
    });

    it('forgets every stream of a session by prefix, and no other', async () => {
      const store = await make({});
      const gone = await store.append('abc.0', msg(1));
      await store.append('abc.1', msg(2));
      const keep = await store.append('abd.0', msg(3));
      await store.append('abd.0', msg(4));
      await store.forget('abc.');
      expect(await store.after(gone)).toBeUndefined();
      expect((await store.after(keep))?.events.map((e) => e.data)).toEqual([msg(4)]);
    });

    it('keeps a complete stream resumable, with the requests it answers, and takes one last event', async () => {
      const store = await make({});
      const prime = await store.append('q.0', '', { requests: [7, 'x'] });
      const progress = await store.append('q.0', msg(1));
      const last = await store.append('q.0', msg(2), { last: true });
      const open = await store.append('q.1', msg(3));
      await store.append('q.1', msg(4));
      expect(await store.after(prime)).toEqual({
        streamId: 'q.0',
        events: [
          { id: progress, data: msg(1) },
          { id: last, data: msg(2) },
        ],
        complete: true,
        requests: [7, 'x'],
      });
      expect(await store.after(last)).toEqual({
        streamId: 'q.0',
        events: [],
        complete: true,
        requests: [7, 'x'],
      });
      // A second last event (another process answering the same stream) is not stored.
      expect(await store.append('q.0', msg(9), { last: true })).toBe(last);
      expect((await store.after(progress))?.events.map((e) => e.data)).toEqual([msg(2)]);
      expect(await store.after(open)).toEqual({
        streamId: 'q.1',
        events: [{ id: expect.any(String), data: msg(4) }],
        complete: false,
      });
    });

    it('answers undefined beyond the last event of a complete stream', async () => {
      const store = await make({});
      const prime = await store.append('z.0', '');
      const last = await store.append('z.0', msg(1), { last: true });
      const seq = Number(last.slice(last.lastIndexOf('.') + 1));
      expect(await store.after(`z.0.${seq + 1}`)).toBeUndefined();
      expect((await store.after(prime))?.events.map((e) => e.data)).toEqual([msg(1)]);
    });

    it('keeps large events whole and in order', async () => {
      const store = await make({});
      const big = 'x'.repeat(5 * 1024 * 1024);
      const start = await store.append('big.0', '');
      await store.append('big.0', big);
      await store.append('big.0', msg(1));
      const replay = await store.after(start);
      expect(replay?.events.map((e) => e.data.length)).toEqual([big.length, msg(1).length]);
    });
  });
}
