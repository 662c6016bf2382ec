/** Streamable HTTP with an event store that answers later (as Redis does): order, one write, prompt head. */

import { holdFor, quietPeriod, waitFor, within } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { type EventStore, MemoryEventStore } from '../src/http/index.js';
import {
  BOTH,
  follow,
  initSession,
  parseSse,
  post,
  sessionHeaders,
  startClosedAfterEach,
} from './support/http-helpers.js';

const serve = startClosedAfterEach();

/** A memory store whose ids are given at call time but whose answers arrive after `delay(n)` ms. */
function lateStore(delay: (n: number) => number): EventStore & { appends: string[] } {
  const memory = new MemoryEventStore();
  const appends: string[] = [];
  return {
    appends,
    append: (streamId, data, options) => {
      const id = memory.append(streamId, data, options);
      appends.push(id);
      return holdFor(delay(appends.length)).then(() => id); // a store that answers late
    },
    after: (id) => memory.after(id),
    forget: (prefix) => memory.forget(prefix),
  };
}

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

describe('Streamable HTTP: an asynchronous event store', () => {
  it('writes events in the order they were made even when later appends are acknowledged first', async () => {
    // Each append answers sooner than the one before it, so acknowledgements arrive in reverse.
    const store = lateStore((n) => Math.max(0, 60 - n * 5));
    const srv = await serve({ eventStore: store }, (mcp) =>
      mcp.addTool({ name: 'chatty', description: 'five notifications, then the answer' }, (_args, ctx) => {
        for (let n = 1; n <= 5; n++) ctx.notify('notifications/message', { level: 'info', data: `n${n}` });
        return { content: [{ type: 'text', text: 'done' }] };
      }),
    );
    const sessionId = await initSession(srv.url);
    const res = await post(srv.url, call(3, 'chatty'), sessionHeaders(sessionId));
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events[0]?.data).toBe(''); // the priming event comes first
    const messages = events.slice(1).map((e) => JSON.parse(e.data ?? 'null') as Record<string, unknown>);
    expect(messages.map((m) => (m.params as { data?: string } | undefined)?.data ?? m.id)).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      3,
    ]);
    const seqs = events.map((e) => Number((e.id ?? '').split('.').pop()));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('sends head, priming event and a quick answer in one response with a Content-Length', async () => {
    const store = lateStore(() => 15);
    const srv = await serve({ eventStore: store });
    const sessionId = await initSession(srv.url);
    const res = await post(
      srv.url,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } },
      sessionHeaders(sessionId),
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-length')).not.toBeNull();
    const events = parseSse(await res.text());
    expect(events.map((e) => e.data === '')).toEqual([true, false]);
    expect(JSON.parse(events[1]?.data ?? '{}').id).toBe(9);
  });

  it('sends the head once the priming event is stored when the answer takes longer', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const srv = await serve({ eventStore: lateStore(() => 10) }, (mcp) =>
      mcp.addTool({ name: 'gated', description: 'answers when the test says so' }, async () => {
        await gate;
        return { content: [{ type: 'text', text: 'opened' }] };
      }),
    );
    const sessionId = await initSession(srv.url);
    const headers = fetch(srv.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BOTH, ...sessionHeaders(sessionId) },
      body: JSON.stringify(call(4, 'gated')),
    });
    // The tool is still waiting: the head and priming event must reach the client anyway.
    const res = await within(headers, 10_000, 'the head while the tool waits');
    expect(res.status).toBe(200);
    open();
    const events = parseSse(await res.text());
    expect(events[0]?.data).toBe('');
    expect(events[1]?.data).toContain('opened');
  });

  it('a GET stream resumed where it is held while an append is under way: the event reaches the new connection once', async () => {
    const memory = new MemoryEventStore();
    let appendMs = 0;
    const store: EventStore = {
      append: (streamId, data, options) =>
        holdFor(appendMs).then(() => memory.append(streamId, data, options)),
      // What the store holds when asked, answered 50 ms later (a Redis round trip under load).
      after: (id) => {
        const found = memory.after(id);
        return holdFor(50).then(() => found);
      },
      forget: (prefix) => memory.forget(prefix),
    };
    const srv = await serve({ eventStore: store });
    const sessionId = await initSession(srv.url);
    const get = { accept: 'text/event-stream', ...sessionHeaders(sessionId) };
    const first = follow(await fetch(srv.url, { headers: get }));
    await waitFor(() => first.text().startsWith('id: '), 'the priming event');
    const priming = /^id: (\S+)/.exec(first.text())?.[1] as string;
    // An event stored 20 ms from now, while the resumption reads its replay: it must not go only into the
    // connection being replaced (its client left it).
    appendMs = 20;
    const session = [...srv.mcp.sessions].find((s) => s.sessionId === sessionId);
    session?.notify('notifications/message', { level: 'info', data: 'late' });
    const again = follow(await fetch(srv.url, { headers: { ...get, 'last-event-id': priming } }));
    await waitFor(() => again.text().includes('"late"'), 'the late event on the new connection');
    await quietPeriod(100); // a second copy would come now
    expect(again.text().match(/"late"/g)?.length).toBe(1);
    first.stop();
    again.stop();
  });
});
