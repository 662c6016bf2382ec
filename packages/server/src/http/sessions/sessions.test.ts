// Idle expiry of the session table, on fake timers: a session with no request for the idle time, nothing in flight
// and no connection open is expired, once; one used, busy or connected is kept; 0 never expires.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTable } from './sessions.js';
import type { HttpServerTransport } from './transport.js';

/** The members of a transport the table reads, with a request made at the fake clock's now. */
function session(id: string) {
  const s = {
    sessionId: id,
    lastSeen: Date.now(),
    inFlight: 0,
    connected: false,
    used: () => {
      s.lastSeen = Date.now();
    },
  };
  return s;
}

const asTransport = (s: ReturnType<typeof session>): HttpServerTransport => {
  const view: Partial<HttpServerTransport> = s;
  return view as HttpServerTransport;
};

describe('SessionTable idle expiry (fake time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function table(idleMs: number) {
    const expired: string[] = [];
    const sessions = new SessionTable(idleMs, (t) => {
      expired.push(`${t.sessionId}@${Date.now()}`);
      sessions.remove(t);
    });
    return { sessions, expired };
  }

  it('expires a session idle past the idle time, within half of it, and keeps one that is used', async () => {
    const { sessions, expired } = table(1000);
    const idle = session('idle');
    const used = session('used');
    sessions.add(asTransport(idle), undefined);
    sessions.add(asTransport(used), undefined);
    for (let t = 0; t < 1000; t += 100) {
      await vi.advanceTimersByTimeAsync(100);
      used.used();
    }
    expect(expired).toEqual([]); // idle for exactly 1000 ms: not yet past it
    await vi.advanceTimersByTimeAsync(500);
    expect(expired).toEqual(['idle@1500']);
    expect(sessions.get('idle')).toBeUndefined();
    expect(sessions.get('used')).toBeDefined();
    await vi.advanceTimersByTimeAsync(999);
    expect(expired).toEqual(['idle@1500']); // last used at 1000: the sweep at 2000 finds it idle for just 1000 ms
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual(['idle@1500', 'used@2500']);
    expect(sessions.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // the sweep stops with the last session
  });

  it('keeps a session with a request in flight or a connection open, however long', async () => {
    const { sessions, expired } = table(1000);
    const busy = session('busy');
    const open = session('open');
    busy.inFlight = 1;
    open.connected = true;
    sessions.add(asTransport(busy), undefined);
    sessions.add(asTransport(open), undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(expired).toEqual([]);
    busy.inFlight = 0;
    open.connected = false;
    await vi.advanceTimersByTimeAsync(500);
    expect(expired).toEqual(['busy@60500', 'open@60500']);
  });

  it('expires nothing and keeps no timer with an idle time of 0', async () => {
    const { sessions, expired } = table(0);
    sessions.add(asTransport(session('a')), undefined);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(expired).toEqual([]);
    expect(sessions.size).toBe(1);
  });
});
