// Tests of server-to-client requests: elicitation, sampling, roots.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { text } from './content.js';
import { McpServer } from './server.js';

function server(options?: ConstructorParameters<typeof McpServer>[1]) {
  const s = new McpServer({ name: 'c', version: '1' }, options);
  s.addTool({ name: 'elicit' }, async (_a, ctx) => {
    const r = await ctx.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } } });
    return { content: [text(`${r.action}:${String(r.content?.name)}`)] };
  });
  s.addTool({ name: 'elicit_url' }, async (_a, ctx) => {
    const r = await ctx.elicitUrl('Sign in', 'https://example.com/login', 'el-1');
    return { content: [text(r.action)] };
  });
  s.addTool({ name: 'sample' }, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: 'user', content: text('2+2?') }], maxTokens: 5 });
    return { content: [text(String((r.content as { text: string }).text))] };
  });
  s.addTool({ name: 'roots' }, async (_a, ctx) => {
    const roots = await ctx.listRoots();
    return { content: [text(roots.map((r) => r.uri).join(','))] };
  });
  s.addTool({ name: 'header' }, (_a, ctx) => ({ content: [text(String(ctx.header('X-Trace')))] }));
  s.addTool({ name: 'ask_slowly' }, async (_a, ctx) => {
    try {
      await ctx.request('custom/thing', {}, { timeoutMs: 30 });
      return { content: [text('answered')] };
    } catch (error) {
      return { content: [text(`failed: ${(error as { code?: number }).code}`)] };
    }
  });
  return s;
}

const firstText = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]?.text;

describe('server-to-client requests', () => {
  it('elicit (form) sends elicitation/create with mode form and returns the answer', async () => {
    const { peer } = await initializedPeer(server(), { elicitation: {} });
    peer.onServerRequest = (m) => {
      expect(m.params).toEqual({
        mode: 'form',
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { action: 'accept', content: { name: 'Ada' } };
    };
    expect(firstText(await peer.call('tools/call', { name: 'elicit' }))).toBe('accept:Ada');
  });

  it('elicitUrl needs elicitation.url; a client with only form support gets a clear error', async () => {
    const formOnly = await initializedPeer(server(), { elicitation: {} });
    const refused = await formOnly.peer.request('tools/call', { name: 'elicit_url' });
    expect((refused.error as { message: string }).message).toMatch(/does not support URL elicitation/);
    const both = await initializedPeer(server(), { elicitation: { form: {}, url: {} } });
    both.peer.onServerRequest = (m) => {
      expect(m.params).toEqual({
        mode: 'url',
        message: 'Sign in',
        url: 'https://example.com/login',
        elicitationId: 'el-1',
      });
      return { action: 'accept' };
    };
    expect(firstText(await both.peer.call('tools/call', { name: 'elicit_url' }))).toBe('accept');
  });

  it('elicit, sample and listRoots fail clearly when the client lacks the capability', async () => {
    const { peer } = await initializedPeer(server(), { elicitation: { url: {} } });
    for (const [name, pattern] of [
      ['elicit', /form elicitation/],
      ['sample', /sampling/],
      ['roots', /roots/],
    ] as const) {
      const answer = await peer.request('tools/call', { name });
      expect(answer.error).toMatchObject({ code: -32603 });
      expect((answer.error as { message: string }).message).toMatch(pattern);
    }
    expect(peer.serverRequests).toHaveLength(0);
  });

  it('sample and listRoots round-trip with capable clients', async () => {
    const { peer } = await initializedPeer(server(), { sampling: {}, roots: { listChanged: true } });
    peer.onServerRequest = (m) =>
      m.method === 'sampling/createMessage'
        ? { role: 'assistant', content: { type: 'text', text: '4' }, model: 'm' }
        : { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] };
    expect(firstText(await peer.call('tools/call', { name: 'sample' }))).toBe('4');
    expect(firstText(await peer.call('tools/call', { name: 'roots' }))).toBe('file:///a,file:///b');
  });

  it('sampling with tools needs sampling.tools', async () => {
    const s = new McpServer({ name: 'c', version: '1' });
    s.addTool({ name: 'sample_tools' }, async (_a, ctx) => {
      const r = await ctx.sample({
        messages: [{ role: 'user', content: text('weather?') }],
        maxTokens: 5,
        tools: [{ name: 'weather', inputSchema: { type: 'object' } }],
      });
      return { content: [text(String(r.model))] };
    });
    const plain = await initializedPeer(s, { sampling: {} });
    const refused = await plain.peer.request('tools/call', { name: 'sample_tools' });
    expect((refused.error as { message: string }).message).toContain('sampling.tools');
    const capable = await initializedPeer(s, { sampling: { tools: {} } });
    capable.peer.onServerRequest = () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sunny' },
      model: 'm1',
    });
    expect(firstText(await capable.peer.call('tools/call', { name: 'sample_tools' }))).toBe('m1');
  });

  it('a client error answer rejects with an McpError carrying its code', async () => {
    const { peer } = await initializedPeer(server(), { sampling: {} });
    peer.onServerRequest = () => {
      throw new Error('user refused');
    };
    const answer = await peer.request('tools/call', { name: 'sample' });
    expect(answer.error).toMatchObject({ code: -32603, message: expect.stringContaining('user refused') });
  });

  it('times out with -32001 and tells the client with notifications/cancelled', async () => {
    const { peer } = await initializedPeer(server());
    peer.onServerRequest = () => new Promise(() => {});
    expect(firstText(await peer.call('tools/call', { name: 'ask_slowly' }))).toBe('failed: -32001');
    const cancelled = await peer.waitForNotification('notifications/cancelled');
    expect((cancelled.params as { requestId: unknown }).requestId).toBe(peer.serverRequests[0]?.id);
  });

  it('cancelling the tool call cancels its pending client request', async () => {
    const { peer } = await initializedPeer(server(), { elicitation: {} });
    peer.onServerRequest = () => new Promise(() => {});
    void peer.request('tools/call', { name: 'elicit' }, 'e');
    await peer.waitFor((m) => m.method === 'elicitation/create');
    await peer.notify('notifications/cancelled', { requestId: 'e' });
    const cancelled = await peer.waitForNotification('notifications/cancelled');
    expect((cancelled.params as { requestId: unknown }).requestId).toBe(peer.serverRequests[0]?.id);
  });

  it('session.request works outside handlers; closing the connection rejects pending requests', async () => {
    const { peer, session } = await initializedPeer(server());
    peer.onServerRequest = () => ({ ok: true });
    expect(await session.request('custom/echo', { a: 1 })).toEqual({ ok: true });
    peer.onServerRequest = () => new Promise(() => {});
    const pending = session.request('custom/hang');
    await waitFor(() => peer.serverRequests.length === 2, 'the request to reach the client');
    await session.close();
    await expect(pending).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('ctx.header reads the message context case-insensitively; undefined without one', async () => {
    const withHeaders = await initializedPeer(server(), {}, '2025-11-25', {
      context: { headers: { 'x-trace': 'abc' } },
    });
    expect(firstText(await withHeaders.peer.call('tools/call', { name: 'header' }))).toBe('abc');
    const bare = await initializedPeer(server());
    expect(firstText(await bare.peer.call('tools/call', { name: 'header' }))).toBe('undefined');
  });
});
