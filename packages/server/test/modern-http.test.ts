/**
 * 2026-07-28 over Streamable HTTP beside 2025 sessions on one endpoint: status codes, header
 * validation, modern SSE (no ids, X-Accel-Buffering, progress on the request's own stream),
 * multi-round-trip input and subscriptions/listen.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { text } from '../src/index.js';
import {
  callEcho,
  initSession,
  post,
  responseOf,
  sessionHeaders,
  startClosedAfterEach,
} from './support/http-helpers.js';
import { envelope, MODERN } from './support/modern-envelope.js';

const start = startClosedAfterEach();

/** A modern POST with the headers a conforming client sends (overridable). */
function modern(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const named =
    typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return post(
    url,
    {
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...envelope({ elicitation: {} }), ...(params._meta as object) } },
    },
    {
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(named === undefined ? {} : { 'mcp-name': named }),
      ...headers,
    },
  );
}

function setup(server: Parameters<NonNullable<Parameters<typeof start>[1]>>[0]): void {
  server.addTool({ name: 'slow' }, async (_a, ctx) => {
    ctx.progress(1, 2);
    await holdFor(20); // a second step later than the first
    ctx.progress(2, 2);
    return { content: [text('done')] };
  });
  server.addTool({ name: 'ask' }, async (_a, ctx) => {
    const r = await ctx.elicit(
      'name?',
      { type: 'object', properties: { n: { type: 'string' } } },
      { key: 'n' },
    );
    return { content: [text(`got ${String(r.content?.n)}`)] };
  });
  server.addTool(
    {
      name: 'region',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    },
    (args) => ({ content: [text(String(args.region))] }),
  );
}

describe('the modern era over HTTP', () => {
  it('serves a modern call and a 2025 session side by side on one endpoint', async () => {
    const srv = await start({}, setup);
    const sessionId = await initSession(srv.url);
    const legacy = await responseOf(await post(srv.url, callEcho(1, 'old'), sessionHeaders(sessionId)));
    expect(legacy.result).toMatchObject({ content: [{ type: 'text', text: 'old' }] });
    const res = await modern(srv.url, 2, 'tools/call', { name: 'echo', arguments: { text: 'new' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = await responseOf(res);
    expect(body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'new' }] });
  });

  it('answers removed methods 404 -32601 and envelope problems 400 with the request id', async () => {
    const srv = await start({}, setup);
    const ping = await modern(srv.url, 3, 'ping', {});
    expect(ping.status).toBe(404);
    expect(await ping.json()).toMatchObject({ id: 3, error: { code: -32601 } });
    const future = await modern(
      srv.url,
      4,
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(future.status).toBe(400);
    expect(await future.json()).toMatchObject({
      id: 4,
      error: { code: -32022, data: { supported: [MODERN] } },
    });
  });

  it('refuses contradictory or missing headers with -32020 and 400', async () => {
    const srv = await start({}, setup);
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'mcp-method': 'tools/list' }, /Mcp-Method header value 'tools\/list'/],
      [{ 'mcp-name': 'other' }, /Mcp-Name header value 'other'/],
      [{ 'mcp-protocol-version': '2025-11-25' }, /MCP-Protocol-Version/],
      [{ 'mcp-name': '=?base64?ZWNobw?=' }, /not valid/],
    ];
    for (const [headers, message] of cases) {
      const res = await modern(srv.url, 5, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(400);
      const body = (await res.json()) as { id: number; error: { code: number; message: string } };
      expect(body.id).toBe(5);
      expect(body.error.code).toBe(-32020);
      expect(body.error.message).toMatch(message);
    }
    const encoded = await modern(
      srv.url,
      6,
      'tools/call',
      { name: 'echo', arguments: { text: 'x' } },
      { 'mcp-name': '=?base64?ZWNobw==?=' },
    );
    expect(encoded.status).toBe(200);
  });

  it('checks x-mcp-header parameters against the arguments', async () => {
    const srv = await start({}, setup);
    const call = (headers: Record<string, string>, args: Record<string, unknown>) =>
      modern(srv.url, 7, 'tools/call', { name: 'region', arguments: args }, headers);
    expect((await call({ 'mcp-param-region': ' eu-west ' }, { region: 'eu-west' })).status).toBe(200);
    expect((await call({}, { region: 'eu-west' })).status).toBe(400);
    expect((await call({ 'mcp-param-region': 'us' }, { region: 'eu-west' })).status).toBe(400);
    expect((await call({ 'mcp-param-region': 'us' }, {})).status).toBe(400);
    expect((await call({}, {})).status).toBe(200);
  });

  it('streams progress on the request stream, X-Accel-Buffering: no; only its priming event has an id', async () => {
    const srv = await start({}, setup);
    const res = await modern(srv.url, 8, 'tools/call', {
      name: 'slow',
      arguments: {},
      _meta: { progressToken: 'p' },
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const body = await res.text();
    // One id, on the empty priming event first: it names the call, for a client whose stream breaks.
    expect(body.match(/^id:.*$/gm)).toEqual([
      expect.stringMatching(/^id: call\.[^.]+\.[0-9a-f]{32}\.[0-9a-f]+\.0$/),
    ]);
    expect(body.startsWith('id: ')).toBe(true);
    expect(body.split('\n\n')[0]).toMatch(/^id: \S+\ndata: $/);
    const messages = body
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => JSON.parse(b.slice(6)));
    expect(messages.map((m) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
  });

  it('completes a multi-round-trip call over two POSTs', async () => {
    const srv = await start({}, setup);
    const first = await responseOf(await modern(srv.url, 9, 'tools/call', { name: 'ask', arguments: {} }));
    const r1 = first.result as { resultType: string; requestState: string };
    expect(r1.resultType).toBe('input_required');
    const second = await responseOf(
      await modern(srv.url, 10, 'tools/call', {
        name: 'ask',
        arguments: {},
        requestState: r1.requestState,
        inputResponses: { n: { action: 'accept', content: { n: 'Bo' } } },
      }),
    );
    expect(second.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'got Bo' }],
    });
  });

  it('acknowledges subscriptions/listen first and delivers only the requested changes', async () => {
    const srv = await start({}, setup);
    const res = await modern(srv.url, 11, 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) seen += decoder.decode((await reader.read()).value);
    };
    await until(/acknowledged/);
    srv.mcp.addPrompt({ name: 'ignored' }, () => []);
    srv.mcp.addTool({ name: 'added' }, () => ({ content: [] }));
    await until(/tools\/list_changed/);
    expect(seen).not.toMatch(/prompts\/list_changed/);
    const frames = seen
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => JSON.parse(b.slice(6)));
    expect(frames[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } },
    });
    for (const f of frames) expect(f.params._meta['io.modelcontextprotocol/subscriptionId']).toBe(11);
    await reader.cancel();
  });
});
