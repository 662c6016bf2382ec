// The server's spans and metrics, read from a real OpenTelemetry SDK registered in this process: parents and tracestate
// from _meta, the convention attributes (mcp.resource.uri among them), CLIENT spans of elicitation, sampling and roots.
import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { beforeEach, describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer } from '../../../test/support/modern.js';
import { installOtel } from '../../../test/support/otel.js';
import { createFetchHandler } from '../../fetch/handler.js';
import { text } from '../content.js';
import { ToolError } from '../errors.js';
import { Later } from '../later.js';
import { McpServer } from '../server.js';
import type { ToolResult } from '../types.js';

const otel = installOtel();
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const traceparent = `00-${TRACE}-${CLIENT_SPAN}-01`;

function server(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const s = new McpServer({ name: 't', version: '1' }, options);
  s.addTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args) => {
      // A span the handler makes hangs under the request's span (context flows into handlers).
      trace.getTracer('handler').startSpan('inner').end();
      return { content: [text(String(args.text ?? 'none'))] };
    },
  );
  s.addTool({ name: 'fails' }, () => {
    throw new ToolError('no such file');
  });
  s.addTool({ name: 'ask' }, async (_args, ctx) => {
    const answer = await ctx.elicit('name?', { type: 'object', properties: {} });
    return { content: [text(answer.action)] };
  });
  s.addTool({ name: 'sample' }, async (_args, ctx) => {
    const made = await ctx.sample({ messages: [], maxTokens: 5 });
    return { content: [text(made.model)] };
  });
  s.addTool({ name: 'roots' }, async (_args, ctx) => ({
    content: [text(String((await ctx.listRoots()).length))],
  }));
  s.addResource({ uri: 'test://notes', name: 'notes' }, (uri) => ({ contents: [{ uri, text: 'n' }] }));
  return s;
}

const named = (name: string) => otel.spans().filter((s) => s.name === name);

beforeEach(() => otel.reset());

describe('server spans', () => {
  it('a tools/call span is named for its tool, parented on _meta.traceparent, with the convention attributes', async () => {
    const { peer } = await initializedPeer(server(), {}, '2025-06-18');
    await peer.call('tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent } });
    const [span] = named('tools/call echo');
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(TRACE);
    expect(span?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-06-18',
      'jsonrpc.request.id': expect.any(String),
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    const [inner] = named('inner');
    expect(inner?.parentSpanContext?.spanId).toBe(span?.spanContext().spanId);
  });

  it('a protocol error and a tool error are told apart', async () => {
    const { peer } = await initializedPeer(server());
    const unknown = await peer.request('tools/call', { name: 'nope' });
    expect((unknown.error as { code: number }).code).toBe(-32602);
    await peer.call('tools/call', { name: 'fails' });
    // An unknown name never becomes a span name (a client could make up any number of them).
    const [protocol] = named('tools/call');
    expect(protocol?.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'gen_ai.tool.name': 'nope',
    });
    expect(protocol?.status.code).toBe(SpanStatusCode.ERROR);
    const [tool] = named('tools/call fails');
    expect(tool?.attributes['error.type']).toBe('tool_error');
    expect(tool?.attributes['rpc.response.status_code']).toBeUndefined();
    expect(tool?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a call cancelled by the client is not answered and its span says cancelled, though its handler settles at once', async () => {
    const s = server();
    // Like a plugin call: the abort hook settles the handler's outcome at once, inside the cancel.
    s.addTool({ name: 'quits' }, (_args, ctx) => {
      const outcome = new Later<ToolResult>();
      ctx.onAbort(() => outcome.resolve({ content: [text('stopped')], isError: true }));
      return outcome;
    });
    const { peer } = await initializedPeer(s);
    void peer.request('tools/call', { name: 'quits' }, 'q');
    await peer.notify('notifications/cancelled', { requestId: 'q' });
    // A later call's answer shows the server went on; none for the cancelled one came before it.
    await peer.call('tools/call', { name: 'echo', arguments: { text: 'after' } });
    expect(peer.received.filter((m) => m.id === 'q')).toEqual([]);
    const [span] = named('tools/call quits');
    expect(span?.attributes['error.type']).toBe('cancelled');
  });

  it('notifications get spans, and HTTP headers parent a request whose _meta has none', async () => {
    const headers = { traceparent: `00-${TRACE}-aaaaaaaaaaaaaaaa-01` };
    const { peer } = await initializedPeer(server(), {}, '2025-11-25', { context: { headers } });
    await peer.call('ping');
    await peer.call('tools/call', { name: 'echo', arguments: {}, _meta: { traceparent } });
    expect(named('notifications/initialized')).toHaveLength(1);
    const [ping] = named('ping');
    expect(ping?.parentSpanContext?.spanId).toBe('aaaaaaaaaaaaaaaa');
    expect(ping?.attributes).toMatchObject({ 'network.transport': 'tcp', 'network.protocol.name': 'http' });
    expect(named('tools/call echo')[0]?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it('a 2026-07-28 request is traced with its envelope version', async () => {
    const peer = await modernPeer(server());
    await peer.modern('tools/call', { name: 'echo', arguments: {}, _meta: { traceparent } });
    const [span] = named('tools/call echo');
    expect(span?.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(span?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it('a request to the client is a CLIENT span under the call, and carries its context in _meta', async () => {
    const { peer } = await initializedPeer(server(), { elicitation: { form: {} } });
    peer.onServerRequest = () => ({ action: 'decline' });
    await peer.call('tools/call', { name: 'ask', _meta: { traceparent } });
    const [call] = named('tools/call ask');
    const [elicit] = named('elicitation/create');
    expect(elicit?.kind).toBe(SpanKind.CLIENT);
    expect(elicit?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    const sent = peer.serverRequests[0]?.params as { _meta?: { traceparent?: string } };
    expect(sent._meta?.traceparent).toBe(`00-${TRACE}-${elicit?.spanContext().spanId}-01`);
  });
});

describe('server spans: trace state, resources, sampling and roots', () => {
  const tracestate = 'vendor=abc,other=x1';

  it('keeps the tracestate of _meta with the parent, and passes it on in the requests the call makes', async () => {
    const { peer } = await initializedPeer(server(), { elicitation: { form: {} } });
    peer.onServerRequest = () => ({ action: 'decline' });
    await peer.call('tools/call', { name: 'ask', _meta: { traceparent, tracestate } });
    const [call] = named('tools/call ask');
    expect(call?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(call?.parentSpanContext?.traceState?.serialize()).toBe(tracestate);
    expect(call?.spanContext().traceState?.serialize()).toBe(tracestate);
    const sent = peer.serverRequests[0]?.params as { _meta?: Record<string, unknown> };
    expect(sent._meta?.tracestate).toBe(tracestate);
  });

  it('a resources/read span carries mcp.resource.uri', async () => {
    const { peer } = await initializedPeer(server());
    await peer.call('resources/read', { uri: 'test://notes', _meta: { traceparent } });
    const [read] = otel.spans().filter((s) => s.attributes['mcp.method.name'] === 'resources/read');
    expect(read?.kind).toBe(SpanKind.SERVER);
    expect(read?.attributes['mcp.resource.uri']).toBe('test://notes');
    expect(read?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
  });

  it.each([
    [
      'sampling/createMessage',
      'sample',
      { sampling: {} },
      { role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } },
    ],
    ['roots/list', 'roots', { roots: {} }, { roots: [{ uri: 'file:///w', name: 'w' }] }],
  ])(
    '%s is a CLIENT span under the call, its context in _meta',
    async (method, tool, capabilities, answer) => {
      const { peer } = await initializedPeer(server(), capabilities);
      peer.onServerRequest = () => answer;
      await peer.call('tools/call', { name: tool, _meta: { traceparent } });
      const [call] = named(`tools/call ${tool}`);
      const [request] = named(method);
      expect(request?.kind).toBe(SpanKind.CLIENT);
      expect(request?.spanContext().traceId).toBe(TRACE);
      expect(request?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
      const sent = peer.serverRequests.find((m) => m.method === method)?.params as {
        _meta?: { traceparent?: string };
      };
      expect(sent._meta?.traceparent).toBe(`00-${TRACE}-${request?.spanContext().spanId}-01`);
    },
  );
});

describe('task spans', () => {
  it('a task is a span under the request that started it, ending with the handler, told how it ended', async () => {
    const s = new McpServer(
      { name: 'tasks', version: '1' },
      { tasks: { pollIntervalMs: 20, syncWindowMs: 0 } },
    );
    s.addTool({ name: 'job', execution: { taskSupport: 'optional' } }, async () => {
      await holdFor(30); // work that outlasts the sync window
      return { content: [text('built')] };
    });
    const peer = await modernPeer(s, { extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const created = await peer.modern('tools/call', { name: 'job', _meta: { traceparent } });
    expect((created.result as { resultType?: string }).resultType).toBe('task');
    const [call] = named('tools/call job');
    expect(call?.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    await waitFor(() => named('task tools/call').length > 0, 'the task span to end');
    const [task] = named('task tools/call');
    expect(task?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(task?.attributes).toMatchObject({
      'entropic.task.id': (created.result as { taskId: string }).taskId,
      'entropic.task.status': 'completed',
    });
    expect(task && task.endTime[0] * 1e9 + task.endTime[1]).toBeGreaterThan(
      (call?.endTime[0] ?? 0) * 1e9 + (call?.endTime[1] ?? 0),
    );
  });
});

describe('task spans within the sync window', () => {
  it('a call answered within the window ends its span as direct, with what the handler traced under it', async () => {
    const s = new McpServer({ name: 'tasks', version: '1' }, { tasks: { syncWindowMs: 60_000 } });
    s.addTool({ name: 'quick', execution: { taskSupport: 'optional' } }, async () => {
      trace.getTracer('handler').startSpan('inner').end();
      return { content: [text('quick')] };
    });
    const peer = await modernPeer(s, { extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const answer = await peer.modern('tools/call', { name: 'quick', _meta: { traceparent } });
    expect((answer.result as { resultType?: string }).resultType).toBe('complete');
    const [call] = named('tools/call quick');
    const [task] = named('task tools/call');
    const [inner] = named('inner');
    expect(task?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(inner?.parentSpanContext?.spanId).toBe(task?.spanContext().spanId);
    expect(task?.attributes['entropic.task.status']).toBe('direct');
    expect(task?.attributes['entropic.task.id']).toBeUndefined();
  });
});

describe('server metrics', () => {
  const count = async (name: string, match: Record<string, unknown>) =>
    (await otel.points(name))
      .filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v))
      .reduce((sum, p) => sum + (typeof p.value === 'number' ? p.value : p.value.count), 0);

  it('counts operations by method and tool, sessions open and their duration, and refusals by reason', async () => {
    const before = await count('mcp.server.operation.duration', { 'gen_ai.tool.name': 'echo' });
    const open = await count('mcp.server.session.active', {});
    const ended = await count('mcp.server.session.duration', {});
    const { peer, session } = await initializedPeer(server());
    expect(await count('mcp.server.session.active', {})).toBe(open + 1);
    for (let i = 0; i < 3; i++) await peer.call('tools/call', { name: 'echo', arguments: {} });
    await peer.request('tools/call', { name: 'echo', arguments: { text: 5 } });
    expect(await count('mcp.server.operation.duration', { 'gen_ai.tool.name': 'echo' })).toBe(before + 4);
    const [point] = await otel.points('mcp.server.operation.duration');
    expect((point?.value as { buckets?: { boundaries: number[] } } | undefined)?.buckets?.boundaries).toEqual(
      [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    );
    const refused = await count('mcp.server.request.rejected', { reason: 'validation' });
    await peer.request('tools/call', { arguments: {} });
    expect(await count('mcp.server.request.rejected', { reason: 'validation' })).toBe(refused + 1);
    await session.close();
    expect(await count('mcp.server.session.active', {})).toBe(open);
    expect(await count('mcp.server.session.duration', {})).toBe(ended + 1);
  });

  it('gauges the requests in flight and the queue, and counts a full queue as a limit', async () => {
    const s = new McpServer({ name: 'q', version: '1' }, { maxConcurrency: 1, maxQueued: 1 });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    s.addTool({ name: 'wait' }, async () => {
      await gate;
      return { content: [] };
    });
    const { peer } = await initializedPeer(s);
    const calls = [1, 2, 3].map(() => peer.request('tools/call', { name: 'wait' }));
    await waitFor(
      async () => (await count('mcp.server.request.rejected', { reason: 'limits' })) === 1,
      'the third call to be refused',
    );
    expect(await count('mcp.server.request.queued', {})).toBe(1);
    expect(await count('mcp.server.request.active', {})).toBe(2);
    expect(await count('mcp.server.request.rejected', { reason: 'limits' })).toBe(1);
    release();
    await Promise.all(calls);
    expect(await count('mcp.server.request.queued', {})).toBe(0);
    expect(await count('mcp.server.request.active', {})).toBe(0);
  });

  it('counts HTTP refusals by reason: no credentials (auth), a body over the cap (limits), a bad request (validation)', async () => {
    const reasons = ['auth', 'limits', 'validation'] as const;
    const before = await Promise.all(
      reasons.map((reason) => count('mcp.server.request.rejected', { reason })),
    );
    const post = (body: string, headers: Record<string, string> = {}) =>
      new Request('http://localhost/mcp', {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      });
    const refuse = () => {
      throw { status: 401, error: 'invalid_token', message: 'no token' };
    };
    const locked = createFetchHandler(server(), { auth: { authenticate: refuse } });
    expect((await locked(post('{}'))).status).toBe(401);
    const open = createFetchHandler(server(), { maxBodyBytes: 64 });
    expect((await open(post(JSON.stringify({ pad: 'x'.repeat(100) })))).status).toBe(413);
    expect((await open(post('{"jsonrpc":"2.0"', {}))).status).toBe(400);
    const after = await Promise.all(
      reasons.map((reason) => count('mcp.server.request.rejected', { reason })),
    );
    expect(after).toEqual(before.map((n) => n + 1));
    await Promise.all([locked.close(), open.close()]);
  });
});
