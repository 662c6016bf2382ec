// Streamable HTTP: session lifecycle (expiry, close, caps).
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { type EventStore, MemoryEventStore } from '../src/http/index.js';
import {
  callEcho,
  INIT_BODY,
  initSession,
  parseSse,
  post,
  responseOf,
  sessionHeaders,
  start,
  startClosedAfterEach,
} from './support/http-helpers.js';

const serve = startClosedAfterEach();

describe('Streamable HTTP: session lifecycle', () => {
  it('expires a session idle past sessionIdleTimeoutMs, and keeps one that is used', async () => {
    // The timing of the sweep is tested on fake time (src/http/sessions/sessions.test.ts); here, over HTTP.
    const srv = await serve({ sessionIdleTimeoutMs: 1000 });
    const idle = await initSession(srv.url);
    const busy = await initSession(srv.url);
    let i = 0;
    await waitFor(async () => {
      await (await post(srv.url, callEcho(i++, 'tick'), sessionHeaders(busy))).text(); // busy is used all along
      return srv.handler.session(idle) === undefined;
    }, 'the idle session to expire');
    expect((await post(srv.url, callEcho(1, 'x'), sessionHeaders(idle))).status).toBe(404);
    expect(srv.handler.session(busy)).toBeDefined();
    expect(srv.mcp.sessions.size).toBe(1);
  });

  it('closing the HTTP server closes every session and its open streams', async () => {
    const srv = await start();
    const ids = await Promise.all([initSession(srv.url), initSession(srv.url), initSession(srv.url)]);
    const get = await fetch(srv.url, {
      headers: { ...sessionHeaders(ids[0] as string), accept: 'text/event-stream' },
    });
    expect(get.status).toBe(200);
    expect(srv.mcp.sessions.size).toBe(3);
    await srv.close();
    expect(srv.handler.sessionCount).toBe(0);
    expect(srv.mcp.sessions.size).toBe(0);
    await expect(get.text()).resolves.toBeDefined();
  });

  it('answers 503 once maxSessions are open', async () => {
    const srv = await serve({ maxSessions: 2 });
    await initSession(srv.url);
    await initSession(srv.url);
    const third = await post(srv.url, INIT_BODY);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('5');
  });

  it('sends no priming event to a client that negotiated a version before 2025-11-25', async () => {
    const srv = await serve();
    const old = await post(srv.url, {
      ...INIT_BODY,
      params: { ...INIT_BODY.params, protocolVersion: '2025-06-18' },
    });
    const events = parseSse(await old.text());
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.data ?? '{}').result.protocolVersion).toBe('2025-06-18');
    expect(events[0]?.id).toBeTruthy();
    // Its GET stream has no priming event either, yet the headers arrive at once.
    const sessionId = old.headers.get('mcp-session-id') as string;
    const controller = new AbortController();
    const get = await fetch(srv.url, {
      headers: {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        accept: 'text/event-stream',
      },
      signal: controller.signal,
    });
    expect(get.status).toBe(200);
    controller.abort();
  });

  it('resumes through a pluggable asynchronous event store', async () => {
    const memory = new MemoryEventStore();
    const calls: string[] = [];
    const store: EventStore = {
      append: async (streamId, message, options) => {
        calls.push('append');
        return memory.append(streamId, message, options);
      },
      after: async (id) => {
        calls.push('after');
        return memory.after(id);
      },
      forget: (prefix) => memory.forget(prefix),
    };
    let closeStream: ((sessionId: string, requestId: number) => boolean) | undefined;
    let go: () => void = () => {};
    const headersIn = new Promise<void>((resolve) => {
      go = resolve;
    });
    const srv = await serve({ eventStore: store }, (mcp) =>
      mcp.addTool({ name: 'drop', description: 'drops its stream' }, async (_args, ctx) => {
        await headersIn; // the client has the stream's head and priming event
        closeStream?.(ctx.sessionId as string, ctx.requestId as number);
        ctx.log('info', 'while away');
        return { content: [{ type: 'text', text: 'after resume' }] };
      }),
    );
    closeStream = (sessionId, requestId) =>
      srv.handler.session(sessionId)?.closeRequestStream(requestId) ?? false;
    const sessionId = await initSession(srv.url);
    const res = await post(
      srv.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'drop', arguments: {} } },
      sessionHeaders(sessionId),
    );
    go();
    const first = parseSse(await res.text());
    expect(first).toHaveLength(2);
    expect(first[0]?.data).toBe('');
    expect(first[1]?.retry).toBe(1000);
    // The priming event, the log message and the answer, written while no connection was attached.
    await waitFor(() => calls.filter((c) => c === 'append').length >= 3, 'the answer to be stored');
    const resumed = await fetch(srv.url, {
      headers: {
        ...sessionHeaders(sessionId),
        accept: 'text/event-stream',
        'last-event-id': first[0]?.id as string,
      },
    });
    const replay = parseSse(await resumed.text()).map((e) => JSON.parse(e.data as string));
    expect(replay.map((m) => m.method ?? m.id)).toEqual(['notifications/message', 5]);
    expect(replay[1].result.content[0].text).toBe('after resume');
    expect(calls).toContain('after');
    expect(calls.filter((c) => c === 'append').length).toBeGreaterThanOrEqual(3);
  });

  it('ignores a Last-Event-ID from another session', async () => {
    const srv = await serve();
    const a = await initSession(srv.url);
    const b = await initSession(srv.url);
    const res = await post(srv.url, callEcho(1, 'secret of a'), sessionHeaders(a));
    const eventId = parseSse(await res.text())[0]?.id as string;
    const controller = new AbortController();
    const stolen = await fetch(srv.url, {
      headers: { ...sessionHeaders(b), accept: 'text/event-stream', 'last-event-id': eventId },
      signal: controller.signal,
    });
    expect(stolen.status).toBe(200);
    const reader = (stolen.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).not.toContain('secret of a');
    controller.abort();
  });

  it('sessions are isolated: a log level set in one does not apply to another', async () => {
    const srv = await serve({}, (mcp) =>
      mcp.addTool({ name: 'note', description: 'logs at info' }, (_args, ctx) => {
        ctx.log('info', 'noted');
        return { content: [{ type: 'text', text: 'ok' }] };
      }),
    );
    const quiet = await initSession(srv.url);
    const loud = await initSession(srv.url);
    const set = await post(
      srv.url,
      { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } },
      sessionHeaders(quiet),
    );
    expect((await responseOf(set)).result).toEqual({});
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'note', arguments: {} } };
    const quietText = await (await post(srv.url, call, sessionHeaders(quiet))).text();
    const loudText = await (await post(srv.url, call, sessionHeaders(loud))).text();
    expect(quietText).not.toContain('noted');
    expect(loudText).toContain('noted');
  });
});
