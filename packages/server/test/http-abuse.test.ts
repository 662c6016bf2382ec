// Hostile HTTP peers: what http-protocol and http-security do not already cover. Slow clients
// (headers and bodies trickled), connection floods, session-table exhaustion, session reuse after
// DELETE, ids that JSON cannot round-trip, and session-id quality.
import { connect, type Socket } from 'node:net';
import { holdFor, quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import {
  callEcho,
  connections,
  errorOf,
  INIT_BODY,
  initSession,
  post,
  responseOf,
  sessionHeaders,
  sseMessages,
  startClosedAfterEach,
} from './support/http-helpers.js';

const serve = startClosedAfterEach();

/** Open a raw socket to the server; resolves once connected. */
function socketTo(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

/** Resolves with the ms from now until the server closes `s` (or rejects after `limitMs`). */
function closedWithin(s: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket still open')), limitMs);
    s.on('error', () => {});
    s.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

async function echoWorks(url: string, sessionId: string, id: number): Promise<void> {
  const answer = await responseOf(await post(url, callEcho(id, `alive ${id}`), sessionHeaders(sessionId)));
  expect(answer.result).toEqual({ content: [{ type: 'text', text: `alive ${id}` }] });
}

describe('Streamable HTTP under abuse', () => {
  it('slowloris: headers trickled one byte at a time are cut by the headers timeout', async () => {
    const srv = await serve({ headersTimeout: 1500, requestTimeout: 3000 });
    const sessionId = await initSession(srv.url);
    const sockets = await Promise.all(Array.from({ length: 20 }, () => socketTo(srv.url)));
    const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
    let stop = false;
    const trickle = (async () => {
      for (let i = 0; !stop; i++) {
        for (const s of sockets) if (!s.destroyed) s.write(i < head.length ? head[i]! : 'a');
        await holdFor(100); // the attack's pace: a byte per socket every 100 ms
      }
    })();
    const closed = Promise.all(sockets.map((s) => closedWithin(s, 15_000)));
    await echoWorks(srv.url, sessionId, 1);
    const times = await closed;
    stop = true;
    await trickle;
    // Each byte arrived well inside any per-read idle limit: only a total headers deadline cuts them.
    for (const t of times) expect(t).toBeLessThan(15_000);
    await echoWorks(srv.url, sessionId, 2);
  });

  it('a body trickled after complete headers is cut by the request timeout', async () => {
    const srv = await serve({ headersTimeout: 1000, requestTimeout: 2500 });
    const sessionId = await initSession(srv.url);
    const s = await socketTo(srv.url);
    const body = JSON.stringify(callEcho(5, 'x'.repeat(500)));
    s.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\nmcp-session-id: ${sessionId}\r\n` +
        `content-length: ${body.length}\r\n\r\n`,
    );
    const closed = closedWithin(s, 20_000);
    let i = 0;
    const timer = setInterval(() => {
      if (!s.destroyed && i < body.length) s.write(body[i++]!);
    }, 100);
    const elapsed = await closed;
    clearInterval(timer);
    expect(i).toBeLessThan(body.length);
    expect(elapsed).toBeLessThan(20_000);
    await echoWorks(srv.url, sessionId, 6);
  });

  it('a connection flood beyond maxConnections is dropped; the server keeps serving', async () => {
    const srv = await serve({ maxConnections: 50, headersTimeout: 20_000 });
    const sessionId = await initSession(srv.url);
    const { port } = new URL(srv.url);
    let refused = 0;
    const flood = await Promise.all(
      Array.from(
        { length: 400 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(port), '127.0.0.1', () => {
              s.write('POST /mcp HTTP/1.1\r\n');
              resolve(s);
            });
            s.on('error', () => {});
            s.once('close', () => refused++);
          }),
      ),
    );
    await waitFor(() => refused >= 350, 'the server to drop the connections over its cap');
    const held = await new Promise<number>((resolve, reject) =>
      srv.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(held).toBeLessThanOrEqual(50);
    for (const s of flood) s.destroy();
    await waitFor(async () => (await connections(srv)) === 0, 'the flood to be let go');
    await echoWorks(srv.url, sessionId, 7);
  });

  it('an accept-rate limit drops connections arriving faster than maxConnectionsPerSecond', async () => {
    const srv = await serve({ maxConnectionsPerSecond: 20, headersTimeout: 20_000 });
    const { port } = new URL(srv.url);
    let dropped = 0;
    const burst = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(port), '127.0.0.1', () => resolve(s));
            s.on('error', () => {});
            s.once('close', () => dropped++);
          }),
      ),
    );
    await waitFor(() => dropped >= 150, 'the accept-rate limit to drop the burst');
    await quietPeriod(300); // the limit lets some through: not every connection is dropped
    expect(dropped).toBeLessThan(200);
    for (const s of burst) s.destroy();
    await holdFor(1100); // the subject is a rate: a second for the bucket to refill
    // The bucket refills: a client arriving at a normal pace is served.
    await echoWorks(srv.url, await initSession(srv.url), 14);
  });

  it('maxSessions: initialize beyond the cap gets 503 with Retry-After; a DELETE frees a slot', async () => {
    const srv = await serve({ maxSessions: 3 });
    const ids = await Promise.all([1, 2, 3].map(() => initSession(srv.url)));
    const over = await post(srv.url, INIT_BODY);
    expect(over.status).toBe(503);
    expect(over.headers.get('retry-after')).toBe('5');
    expect((await errorOf(over)).message).toMatch(/too many sessions/);
    const del = await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders(ids[0]!) });
    expect(del.status).toBe(200);
    await echoWorks(srv.url, await initSession(srv.url), 8);
  });

  it('DELETE then reuse: every verb with the old id gets 404; a new session gets a new id', async () => {
    const srv = await serve();
    const old = await initSession(srv.url);
    await echoWorks(srv.url, old, 9);
    expect((await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders(old) })).status).toBe(200);
    const postAgain = await post(srv.url, callEcho(10, 'x'), sessionHeaders(old));
    expect(postAgain.status).toBe(404);
    expect((await errorOf(postAgain)).message).toBe('Session not found');
    const getAgain = await fetch(srv.url, {
      headers: { ...sessionHeaders(old), accept: 'text/event-stream' },
    });
    expect(getAgain.status).toBe(404);
    await getAgain.text();
    const note = await post(
      srv.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      sessionHeaders(old),
    );
    expect(note.status).toBe(404);
    await note.text();
    const fresh = await initSession(srv.url);
    expect(fresh).not.toBe(old);
    await echoWorks(srv.url, fresh, 11);
  });

  it('the standalone backlog kept while no GET is connected is capped at maxStandaloneBacklog', async () => {
    const srv = await serve({ maxStandaloneBacklog: 5 });
    const sessionId = await initSession(srv.url);
    for (let i = 0; i < 50; i++) srv.mcp.notify('notifications/message', { level: 'info', data: { i } });
    const controller = new AbortController();
    const res = await fetch(srv.url, {
      headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    setTimeout(() => controller.abort(), 1000);
    let text = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } catch {
      // the abort ends the read: everything the server sent in that second is in `text`
    }
    const seen = [...text.matchAll(/"i":(\d+)/g)].map((m) => Number(m[1]));
    expect(seen).toEqual([45, 46, 47, 48, 49]);
  });

  it('GET and DELETE without a session id get 400; with a bad protocol version 400', async () => {
    const srv = await serve();
    const sessionId = await initSession(srv.url);
    const get = await fetch(srv.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    await get.text();
    const badGet = await fetch(srv.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': 'x' },
    });
    expect(badGet.status).toBe(400);
    await badGet.text();
    const badDelete = await fetch(srv.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2099-01-01' },
    });
    expect(badDelete.status).toBe(400);
    await badDelete.text();
    await echoWorks(srv.url, sessionId, 12);
  });

  it('session ids are random UUIDs: 200 sessions, no repeats, no shared prefix', async () => {
    // 200 sessions from one address: twice maxSessionsPerClient's default, turned off here.
    const srv = await serve({ maxSessionsPerClient: 0 });
    const ids = await Promise.all(Array.from({ length: 200 }, () => initSession(srv.url)));
    expect(new Set(ids).size).toBe(200);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids.map((id) => id.slice(0, 4))).size).toBeGreaterThan(150);
  });

  it('a 2025-03-26 batch over the JSON depth cap is answered per request, not left hanging', async () => {
    const srv = await serve();
    const init = await post(srv.url, {
      ...INIT_BODY,
      params: { ...INIT_BODY.params, protocolVersion: '2025-03-26' },
    });
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const body = `[{"jsonrpc":"2.0","id":"a","method":"ping","params":{"d":${deep}}},{"jsonrpc":"2.0","id":"b","method":"ping"}]`;
    const res = await fetch(srv.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    const answers = sseMessages(await res.text());
    expect(answers.map((a) => [a.id, (a.error as { code?: number } | undefined)?.code])).toEqual([
      ['a', -32600],
      ['b', -32600],
    ]);
    expect(srv.handler.session(sessionId)?.inFlight).toBe(0);
  }, 30_000);

  for (const stateless of [false, true]) {
    it(`a request id that overflows to Infinity is refused at once (${stateless ? 'stateless' : 'stateful'})`, async () => {
      const srv = await serve({ stateless });
      const sessionId = stateless ? '' : await initSession(srv.url);
      const headers = stateless ? {} : sessionHeaders(sessionId);
      const res = await post(srv.url, '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', headers);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe(-32600);
      await echoWorks(srv.url, sessionId, 13);
    }, 15_000);
  }
});
