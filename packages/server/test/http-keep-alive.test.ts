/**
 * Keep-alive comments on every open SSE stream, from one timer (`keepAliveMs`): the legacy GET
 * stream, a legacy POST stream whose answer takes long, a 2026-07-28 listen stream; none with 0.
 */

import { holdFor, quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import {
  BOTH,
  follow,
  initSession,
  post,
  sessionHeaders,
  startClosedAfterEach,
} from './support/http-helpers.js';
import { envelope, MODERN } from './support/modern-envelope.js';

const serve = startClosedAfterEach();

/** The keep-alive comments in an SSE text. */
const comments = (text: string) => text.split('\n\n').filter((block) => block === ':').length;

describe('Streamable HTTP: keep-alive comments', () => {
  it('are written on a legacy GET stream, a legacy POST stream that waits, and a 2026-07-28 stream', async () => {
    const srv = await serve({ keepAliveMs: 50 }, (mcp) => {
      mcp.addTool({ name: 'slow', description: 'answers after 400 ms' }, async () => {
        await holdFor(400); // long enough for several comments
        return { content: [{ type: 'text', text: 'done' }] };
      });
    });
    const sessionId = await initSession(srv.url);
    const get = follow(
      await fetch(srv.url, { headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' } }),
    );
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } };
    const slow = await (await post(srv.url, call, sessionHeaders(sessionId))).text();
    expect(comments(slow)).toBeGreaterThanOrEqual(2);
    expect(slow).toMatch(/"text":"done"/);
    await waitFor(() => comments(get.text()) >= 3, 'comments on the GET stream');
    const listen = follow(
      await post(
        srv.url,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true }, _meta: envelope() },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen', accept: BOTH },
      ),
    );
    await waitFor(() => comments(listen.text()) >= 3, 'comments on the listen stream');
    // A stream whose client left gets nothing more; the GET stream's connection is let go.
    get.stop();
    await waitFor(() => srv.handler.session(sessionId)?.standaloneConnected === false, 'the GET to close');
    listen.stop();
  });

  it('are not written with keepAliveMs 0', async () => {
    const srv = await serve({ keepAliveMs: 0 });
    const sessionId = await initSession(srv.url);
    const get = follow(
      await fetch(srv.url, { headers: { ...sessionHeaders(sessionId), accept: 'text/event-stream' } }),
    );
    await quietPeriod(300); // six intervals of the 50 ms the first test uses
    expect(comments(get.text())).toBe(0);
    get.stop();
  });
});
