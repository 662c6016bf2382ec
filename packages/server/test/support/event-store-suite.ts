/**
 * The behaviour every EventStore must have, as one suite: the in-memory store runs it here and
 * `@entropic-mcp/redis` runs it against a real Redis. Results are awaited, so a store may answer
 * synchronously or with promises.
 */

import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../src/http/event-store.js';

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
      });
      expect((await store.after(a))?.events.map((e) => e.id)).toEqual([b]);
      expect(await store.after(b)).toEqual({ streamId: 's.1', events: [] });
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

    it('deletes one delivered stream and keeps the others', async () => {
      const store = await make({});
      const done = await store.append('q.0', msg(1));
      await store.append('q.0', msg(2));
      const open = await store.append('q.1', msg(3));
      await store.append('q.1', msg(4));
      await store.delete?.('q.0');
      if (store.delete !== undefined) expect(await store.after(done)).toBeUndefined();
      expect((await store.after(open))?.events.map((e) => e.data)).toEqual([msg(4)]);
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
