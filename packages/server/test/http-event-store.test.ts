// Streamable HTTP: the event log of delivered streams and resumption.
import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../src/http/index.js';
import type { McpServer } from '../src/index.js';
import {
  BOTH,
  callEcho,
  follow,
  initSession,
  parseSse,
  post,
  sessionHeaders,
  sseMessages,
  startClosedAfterEach,
} from './support/http-helpers.js';

const serve = startClosedAfterEach();

function addSlow(mcp: McpServer, ms: number): void {
  mcp.addTool({ name: 'slow', description: 'answers after a while' }, async () => {
    await holdFor(ms); // answers after the client left
    return { content: [{ type: 'text', text: 'late answer' }] };
  });
}

const callSlow = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: {} },
});

async function resume(url: string, sessionId: string, lastEventId: string): Promise<string> {
  const res = await fetch(url, {
    headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream', 'last-event-id': lastEventId },
  });
  expect(res.status).toBe(200);
  return res.text();
}

describe('Streamable HTTP: event log of delivered streams', () => {
  it('keeps a stream whose answer was written for the retention window: a write is not delivery', async () => {
    const store = new MemoryEventStore();
    const srv = await serve({ eventStore: store });
    const sessionId = await initSession(srv.url);
    const primings: string[] = [];
    for (let round = 0; round < 4; round++) {
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(srv.url, callEcho(round * 8 + i, `m${round * 8 + i}`), sessionHeaders(sessionId)),
        ),
      );
      for (const [i, text] of (await Promise.all(replies.map((r) => r.text()))).entries()) {
        const events = parseSse(text);
        expect(events[0]?.data).toBe(''); // the priming event leads
        expect(sseMessages(text)[0]?.id).toBe(round * 8 + i);
        primings.push(events[0]?.id as string);
      }
    }
    expect(store.size).toBe(33); // the initialize stream and 32 calls, all complete
    // The client (or a proxy in front of it) lost any of those answers: resuming replays it, then ends.
    const replay = sseMessages(await resume(srv.url, sessionId, primings[13] as string));
    expect(replay).toMatchObject([{ id: 13, result: { content: [{ text: 'm13' }] } }]);
  });

  it('drops complete streams first when the store is full, so a live GET stream stays resumable', async () => {
    const store = new MemoryEventStore({ maxStreams: 10 });
    const srv = await serve({ eventStore: store });
    const sessionId = await initSession(srv.url);
    const controller = new AbortController();
    const get = await fetch(srv.url, {
      headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = (get.body as ReadableStream<Uint8Array>).getReader();
    const primed = parseSse(new TextDecoder().decode((await reader.read()).value))[0]?.id as string;
    for (let i = 0; i < 30; i++)
      await (await post(srv.url, callEcho(i, 'x'), sessionHeaders(sessionId))).text();
    controller.abort();
    expect(store.size).toBeLessThanOrEqual(10);
    expect(store.after(primed)).toEqual({
      streamId: primed.slice(0, primed.lastIndexOf('.')),
      events: [],
      complete: false,
    });
  });

  it('a complete stream resumed after its last event opens the GET stream instead', async () => {
    const srv = await serve({ eventStore: new MemoryEventStore() });
    const sessionId = await initSession(srv.url);
    const events = parseSse(await (await post(srv.url, callEcho(3, 'x'), sessionHeaders(sessionId))).text());
    const controller = new AbortController();
    const res = await fetch(srv.url, {
      headers: {
        ...sessionHeaders(sessionId),
        accept: 'text/event-stream',
        'last-event-id': events[1]?.id as string,
      },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const first = parseSse(
      new TextDecoder().decode((await (res.body as ReadableStream<Uint8Array>).getReader().read()).value),
    );
    controller.abort();
    expect(first[0]?.id).toMatch(/^[^.]+\.\d+\.0$/); // a new stream's priming event
    expect(first[0]?.id?.startsWith(`${sessionId}.`)).toBe(true);
  });

  it('keeps the log when the client dropped the connection before the response, and replays it', async () => {
    const store = new MemoryEventStore();
    const srv = await serve({ eventStore: store }, (mcp) => addSlow(mcp, 400));
    const sessionId = await initSession(srv.url);
    const controller = new AbortController();
    const res = await fetch(srv.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BOTH, ...sessionHeaders(sessionId) },
      body: JSON.stringify(callSlow(7)),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const priming = parseSse(new TextDecoder().decode((await reader.read()).value))[0];
    expect(priming?.data).toBe('');
    controller.abort();
    await reader.cancel().catch(() => {});
    // The response is produced while no connection is attached.
    await waitFor(() => store.after(priming?.id as string)?.complete === true, 'the response to be stored');
    expect(store.size).toBe(2); // this stream, and the initialize one (complete, retained)
    const replay = sseMessages(await resume(srv.url, sessionId, priming?.id as string));
    expect(replay.map((m) => m.id)).toEqual([7]);
    expect(JSON.stringify(replay[0]?.result)).toContain('late answer');
  });

  it('keeps the log when the server closed the stream to make the client poll', async () => {
    const store = new MemoryEventStore();
    let closeStream: ((sessionId: string, requestId: number) => boolean) | undefined;
    let go: () => void = () => {};
    const headersIn = new Promise<void>((resolve) => {
      go = resolve;
    });
    const srv = await serve({ eventStore: store }, (mcp) =>
      mcp.addTool({ name: 'poll', description: 'closes its stream, then answers' }, async (_a, ctx) => {
        await headersIn; // the client has the stream's head and priming event
        closeStream?.(ctx.sessionId as string, ctx.requestId as number);
        return { content: [{ type: 'text', text: 'polled' }] };
      }),
    );
    closeStream = (sid, rid) => srv.handler.session(sid)?.closeRequestStream(rid, 100) ?? false;
    const sessionId = await initSession(srv.url);
    const res = await post(
      srv.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'poll', arguments: {} } },
      sessionHeaders(sessionId),
    );
    go();
    const first = parseSse(await res.text());
    expect(first[1]?.retry).toBe(100);
    await waitFor(() => store.after(first[0]?.id as string)?.complete === true, 'the answer to be stored');
    const replay = sseMessages(await resume(srv.url, sessionId, first[0]?.id as string));
    expect(replay.map((m) => m.id)).toEqual([3]);
  });
});

describe('Streamable HTTP: resuming a stream whose old connection looks alive', () => {
  const until = (check: () => boolean): Promise<void> => waitFor(check, 'the stream to show it');

  it('hands the stream to the resuming connection and ends the old one (a proxy may hold it open)', async () => {
    const srv = await serve({ eventStore: new MemoryEventStore() }, (mcp) =>
      mcp.addTool({ name: 'shout', description: 'a notification to the GET stream' }, (args) => {
        mcp.notify('notifications/message', { level: 'info', data: args.n });
        return { content: [{ type: 'text', text: 'ok' }] };
      }),
    );
    const sessionId = await initSession(srv.url);
    const get = (extra: Record<string, string> = {}) =>
      fetch(srv.url, { headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream', ...extra } });
    const shout = async (n: number) => {
      const body = {
        jsonrpc: '2.0',
        id: 10 + n,
        method: 'tools/call',
        params: { name: 'shout', arguments: { n } },
      };
      await (await post(srv.url, body, sessionHeaders(sessionId))).text();
    };
    const old = follow(await get());
    await until(() => parseSse(old.text()).length > 0);
    const primed = parseSse(old.text())[0]?.id as string;
    await shout(1);
    await until(() => old.text().includes('"data":1'));

    const second = await get({ 'last-event-id': primed });
    expect(second.status).toBe(200); // not 409: the client says it lost the old connection
    const fresh = follow(second);
    await old.done; // the server ended the old connection
    await shout(2);
    await until(() => fresh.text().includes('"data":2'));
    expect(sseMessages(fresh.text()).map((m) => (m.params as { data: number }).data)).toEqual([1, 2]);
    expect(old.text()).not.toContain('"data":2');
    expect((await get()).status).toBe(409); // a second GET without Last-Event-ID is still refused
  });
});

describe('Streamable HTTP: a stream whose log the store lost', () => {
  it('is numbered on from its last id, not again from 0, so a resumption from that id gets what came since', async () => {
    const store = new MemoryEventStore();
    const srv = await serve({ eventStore: store }, (mcp) =>
      mcp.addTool({ name: 'shout', description: 'a notification to the GET stream' }, (args) => {
        mcp.notify('notifications/message', { level: 'info', data: args.n });
        return { content: [{ type: 'text', text: 'ok' }] };
      }),
    );
    const sessionId = await initSession(srv.url);
    const shout = async (n: number) => {
      const body = {
        jsonrpc: '2.0',
        id: n,
        method: 'tools/call',
        params: { name: 'shout', arguments: { n } },
      };
      await (await post(srv.url, body, sessionHeaders(sessionId))).text();
    };
    const ids = (text: string) => parseSse(text).map((e) => e.id as string);
    const get = follow(
      await fetch(srv.url, { headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' } }),
    );
    for (let n = 1; n <= 2; n++) {
      await shout(n);
      await waitFor(() => get.text().includes(`"data":${n}`), `notification ${n} on the GET stream`);
    }
    const before = ids(get.text()); // priming, 1, 2
    const stream = (before[0] as string).slice(0, (before[0] as string).lastIndexOf('.'));
    store.delete(stream); // the log is gone (evicted; with Redis: restarted empty, or expired)
    await shout(3);
    await waitFor(() => get.text().includes('"data":3'), 'notification 3 on the GET stream');
    get.stop();
    const seqs = ids(get.text()).map((id) => Number(id.slice(stream.length + 1)));
    expect(seqs).toEqual([0, 1, 2, 3]); // no id given twice
    const headers = { ...sessionHeaders(sessionId), accept: 'text/event-stream' };
    const again = follow(
      await fetch(srv.url, { headers: { ...headers, 'last-event-id': before[2] as string } }),
    );
    await waitFor(() => again.text().includes('"data":3'), 'notification 3 replayed');
    again.stop();
    expect(sseMessages(again.text()).map((m) => (m.params as { data: number }).data)).toEqual([3]);
  });
});

describe('MemoryEventStore.delete', () => {
  it('drops one stream and its bytes, leaving the others resumable', () => {
    const store = new MemoryEventStore();
    const a = store.append('s.0', '');
    store.append('s.0', '{"a":1}');
    const b = store.append('s.1', '');
    store.append('s.1', '{"b":2}');
    store.delete('s.0');
    store.delete('s.9'); // unknown: nothing happens
    expect(store.size).toBe(1);
    expect(store.bytes).toBe('{"b":2}'.length);
    expect(store.after(a)).toBeUndefined();
    expect(store.after(b)?.events.map((e) => e.data)).toEqual(['{"b":2}']);
    for (let i = 0; i < 5000; i++) {
      store.append(`t.${i}`, 'x');
      store.delete(`t.${i}`);
    }
    expect(store.orderLength).toBeLessThan(2000); // the eviction order is compacted, not grown
  });
});
