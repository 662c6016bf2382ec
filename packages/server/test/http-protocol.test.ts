// Streamable HTTP: sessions, status codes and refusals.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callEcho,
  errorOf,
  INIT_BODY,
  initSession,
  parseSse,
  post,
  responseOf,
  sessionHeaders,
  sseMessages,
  type start,
  start as startServer,
} from './support/http-helpers.js';

let srv: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

describe('Streamable HTTP: sessions and status codes', () => {
  it('initialize creates a session with a random id and answers over SSE with a priming event', async () => {
    const res = await post(srv.url, INIT_BODY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const id = res.headers.get('mcp-session-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const events = parseSse(await res.text());
    expect(events[0]?.data).toBe('');
    expect(events[0]?.id).toBeTruthy();
    const result = JSON.parse(events[1]?.data ?? '{}');
    expect(result.result.protocolVersion).toBe('2025-11-25');
    const other = await post(srv.url, INIT_BODY);
    await other.text();
    expect(other.headers.get('mcp-session-id')).not.toBe(id);
  });

  it('a tools/call answers on its own SSE stream', async () => {
    const sessionId = await initSession(srv.url);
    const res = await post(srv.url, callEcho(1, 'hello'), sessionHeaders(sessionId));
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBe(sessionId);
    const response = await responseOf(res);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'hello' }] },
    });
  });

  it('202 for notifications and for responses', async () => {
    const sessionId = await initSession(srv.url);
    const note = await post(
      srv.url,
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      sessionHeaders(sessionId),
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    const answer = await post(srv.url, { jsonrpc: '2.0', id: 'x', result: {} }, sessionHeaders(sessionId));
    expect(answer.status).toBe(202);
  });

  it('406 when Accept lacks one of the two types, 415 for a wrong Content-Type', async () => {
    const sessionId = await initSession(srv.url);
    const onlyJson = await post(srv.url, callEcho(2, 'a'), {
      ...sessionHeaders(sessionId),
      accept: 'application/json',
    });
    expect(onlyJson.status).toBe(406);
    expect((await errorOf(onlyJson)).message).toMatch(/Accept/);
    const wrongType = await post(srv.url, callEcho(3, 'a'), {
      ...sessionHeaders(sessionId),
      'content-type': 'text/plain',
    });
    expect(wrongType.status).toBe(415);
    const get = await fetch(srv.url, {
      headers: { ...sessionHeaders(sessionId), accept: 'application/json' },
    });
    expect(get.status).toBe(406);
  });

  it('400 without a session id, 404 for an unknown one, 400 for initialize with one', async () => {
    const missing = await post(srv.url, callEcho(4, 'a'), { 'mcp-protocol-version': '2025-11-25' });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/Mcp-Session-Id/);
    const unknown = await post(srv.url, callEcho(5, 'a'), sessionHeaders('not-a-session'));
    expect(unknown.status).toBe(404);
    const sessionId = await initSession(srv.url);
    const reinit = await post(srv.url, INIT_BODY, { 'mcp-session-id': sessionId });
    expect(reinit.status).toBe(400);
  });

  it('400 for an unsupported MCP-Protocol-Version; an absent header is accepted', async () => {
    const sessionId = await initSession(srv.url);
    const bad = await post(srv.url, callEcho(6, 'a'), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '1999-01-01',
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/MCP-Protocol-Version/);
    const absent = await post(srv.url, callEcho(7, 'ok'), { 'mcp-session-id': sessionId });
    expect(absent.status).toBe(200);
    expect((await responseOf(absent)).result).toBeDefined();
  });

  it('400 with -32700 for a body that is not JSON, -32600 for a batch or a non-message', async () => {
    const sessionId = await initSession(srv.url);
    const parse = await post(srv.url, '{"jsonrpc":', sessionHeaders(sessionId));
    expect(parse.status).toBe(400);
    expect((await errorOf(parse)).code).toBe(-32700);
    const batch = await post(srv.url, [callEcho(8, 'a')], sessionHeaders(sessionId));
    expect(batch.status).toBe(400);
    expect((await errorOf(batch)).code).toBe(-32600);
    const junk = await post(srv.url, { hello: 'world' }, sessionHeaders(sessionId));
    expect(junk.status).toBe(400);
    expect((await errorOf(junk)).code).toBe(-32600);
  });

  it('405 for other methods, with Allow', async () => {
    const res = await fetch(srv.url, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
    const other = await fetch(srv.url.replace('/mcp', '/elsewhere'), { method: 'POST' });
    expect(other.status).toBe(404);
  });

  it('GET opens one standalone stream per session; a second gets 409', async () => {
    const sessionId = await initSession(srv.url);
    const controller = new AbortController();
    const first = await fetch(srv.url, {
      headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(srv.url, {
      headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' },
    });
    expect(second.status).toBe(409);
    controller.abort();
  });

  it('DELETE ends a session; its id then gets 404', async () => {
    const sessionId = await initSession(srv.url);
    const before = srv.handler.sessionCount;
    const del = await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders(sessionId) });
    expect(del.status).toBe(200);
    expect(srv.handler.sessionCount).toBe(before - 1);
    const after = await post(srv.url, callEcho(9, 'a'), sessionHeaders(sessionId));
    expect(after.status).toBe(404);
    const again = await fetch(srv.url, { method: 'DELETE', headers: sessionHeaders(sessionId) });
    expect(again.status).toBe(404);
    const noId = await fetch(srv.url, { method: 'DELETE' });
    expect(noId.status).toBe(400);
  });

  it('100 parallel sessions each get their own answers', async () => {
    // A server of its own: the shared one holds this file's other sessions, and one address may hold
    // 100 (maxSessionsPerClient), which this test takes whole.
    const own = await startServer();
    try {
      const ids = await Promise.all(Array.from({ length: 100 }, () => initSession(own.url)));
      expect(new Set(ids).size).toBe(100);
      const answers = await Promise.all(
        ids.map(async (sessionId, i) =>
          responseOf(await post(own.url, callEcho(i, `s${i}`), sessionHeaders(sessionId))),
        ),
      );
      answers.forEach((answer, i) => {
        expect(answer.id).toBe(i);
        expect((answer.result as { content: { text: string }[] }).content[0]?.text).toBe(`s${i}`);
      });
    } finally {
      await own.close();
    }
  });

  it('the same request id twice at once in one session is refused with 409', async () => {
    const sessionId = await initSession(srv.url);
    let started = false;
    let finish: () => void = () => {};
    srv.mcp.addTool({ name: 'slow', description: 'waits', inputSchema: { type: 'object' } }, async () => {
      started = true;
      await new Promise<void>((go) => {
        finish = go;
      });
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const call = { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'slow', arguments: {} } };
    const first = post(srv.url, call, sessionHeaders(sessionId));
    await waitFor(() => started, 'the first call to start');
    const second = await post(srv.url, call, sessionHeaders(sessionId));
    expect(second.status).toBe(409);
    finish();
    const events = sseMessages(await (await first).text());
    expect(events.at(-1)?.id).toBe(77);
  });

  it("handlers read the POST's headers through ctx.header", async () => {
    srv.mcp.addTool({ name: 'whois', description: 'echoes a header' }, (_args, ctx) => ({
      content: [
        { type: 'text', text: `${ctx.header('X-Caller')}|${ctx.header('mcp-session-id') === ctx.sessionId}` },
      ],
    }));
    const sessionId = await initSession(srv.url);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whois', arguments: {} } };
    const answer = await responseOf(
      await post(srv.url, call, { ...sessionHeaders(sessionId), 'x-caller': 'tester' }),
    );
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'tester|true' }] });
  });

  it('the accept header may use wildcards', async () => {
    const res = await post(srv.url, INIT_BODY, { accept: '*/*' });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    await res.text();
  });
});
