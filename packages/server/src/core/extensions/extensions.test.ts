// Tests of the extension API: custom methods and notifications, declared extensions, hooks.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer } from '../../../test/support/modern.js';
import { LocalError, McpError } from '../errors.js';
import type { RequestOutcome } from '../extension-types.js';
import { McpServer } from '../server.js';

const EXT = 'com.example/search';

function server(): McpServer {
  const s = new McpServer(
    { name: 't', version: '1' },
    { capabilities: { extensions: { 'com.example/other': { v: 2 } } } },
  );
  s.declareExtension(EXT, { depth: 3 });
  s.addMethod(
    {
      method: 'acme/search',
      params: { type: 'object', properties: { q: { type: 'string', minLength: 1 } }, required: ['q'] },
      extension: EXT,
    },
    (params, ctx) => ({ hits: [params.q.toUpperCase()], era: ctx.era, settings: ctx.clientExtension(EXT) }),
  );
  s.addMethod(
    { method: 'acme/typed', params: z.object({ n: z.number().int().default(7) }), scheduled: false },
    (p) => ({
      twice: p.n * 2,
    }),
  );
  s.addMethod({ method: 'acme/legacy-only', eras: ['legacy'] }, () => ({ ok: true }));
  return s;
}

describe('custom methods', () => {
  it('are served with checked params and the same context as tools, when the client declared the extension', async () => {
    const { peer } = await initializedPeer(server(), { extensions: { [EXT]: { depth: 1 } } });
    expect(await peer.call('acme/search', { q: 'mcp' })).toEqual({
      hits: ['MCP'],
      era: 'legacy',
      settings: { depth: 1 },
    });
    expect(await peer.call('acme/typed', {})).toEqual({ twice: 14 });
    const bad = await peer.request('acme/search', { q: '' });
    expect(bad.error).toMatchObject({ code: -32602, data: { pointer: '/params/q' } });
    expect((bad.error as { message: string }).message).toContain('acme/search');
    const unknown = await peer.request('acme/nothing', {});
    expect(unknown.error).toMatchObject({ code: -32601 });
  });

  it('refuse a client that did not declare the required extension with -32021 naming it', async () => {
    const { peer } = await initializedPeer(server(), {});
    const refused = await peer.request('acme/search', { q: 'x' });
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
    // A 2025 client may opt in for one request through _meta.
    const optIn = await peer.call('acme/search', {
      q: 'y',
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } } },
    });
    expect(optIn.hits).toEqual(['Y']);
  });

  it('are served in the modern era with complete results, and only in their eras', async () => {
    const peer = await modernPeer(server(), { extensions: { [EXT]: {} } });
    const answer = await peer.modern('acme/search', { q: 'abc' });
    expect(answer.result).toMatchObject({ hits: ['ABC'], era: 'modern', resultType: 'complete' });
    const legacyOnly = await peer.modern('acme/legacy-only');
    expect(legacyOnly.error).toMatchObject({ code: -32601 });
    const discover = await peer.modern('server/discover');
    expect((discover.result as { capabilities: unknown }).capabilities).toMatchObject({
      extensions: { [EXT]: { depth: 3 }, 'com.example/other': { v: 2 } },
    });
  });

  it('declare what initialize answers, and refuse clashes and undeclared extensions at registration', async () => {
    const s = server();
    const { peer } = await initializedPeer(s);
    expect((peer.initializeResult?.capabilities as Record<string, unknown> | undefined)?.extensions).toEqual({
      'com.example/other': { v: 2 },
      [EXT]: { depth: 3 },
    });
    expect(() => s.addMethod({ method: 'tools/call' }, () => ({}))).toThrow(LocalError);
    expect(() => s.addMethod({ method: 'acme/typed' }, () => ({}))).toThrow(/already served/);
    expect(() => s.addMethod({ method: 'acme/x', extension: 'com.example/none' }, () => ({}))).toThrow(
      /does not declare/,
    );
    expect(() => s.declareExtension(EXT)).toThrow(/already declared/);
    expect(() => s.declareExtension('no-slash')).toThrow(/vendor.example\/name/);
    expect(() => s.addNotification({ method: 'notifications/cancelled' }, () => {})).toThrow(
      /already handled/,
    );
  });

  it('can be removed and updated', async () => {
    const s = server();
    const reg = s.addMethod({ method: 'acme/echo' }, (p) => ({ echo: p }));
    const { peer } = await initializedPeer(s);
    expect(await peer.call('acme/echo', { a: 1 })).toEqual({ echo: { a: 1 } });
    reg.update({}, () => ({ replaced: true }));
    expect(await peer.call('acme/echo', {})).toEqual({ replaced: true });
    reg.remove();
    expect((await peer.request('acme/echo', {})).error).toMatchObject({ code: -32601 });
    // Removing a custom method never removes a built-in one.
    expect(await peer.call('ping')).toEqual({});
  });

  it('answer -32603 naming the method when the handler returns no object or throws', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.addMethod({ method: 'acme/junk' }, () => 42 as never);
    s.addMethod({ method: 'acme/wire' }, async () => {
      throw new McpError(-32050, 'custom refusal');
    });
    const { peer } = await initializedPeer(s);
    const junk = await peer.request('acme/junk', {});
    expect(junk.error).toMatchObject({ code: -32603 });
    expect((junk.error as { message: string }).message).toMatch(/acme\/junk.*not an object/);
    expect((await peer.request('acme/wire', {})).error).toMatchObject({
      code: -32050,
      message: 'custom refusal',
    });
  });
});

describe('custom notifications', () => {
  it('reach their handler with checked params; others still reach session.onnotification', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    const got: unknown[] = [];
    s.addNotification(
      {
        method: 'acme/ping',
        params: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      },
      (params, ctx) => got.push([params.n, ctx.era, ctx.client?.info?.name]),
    );
    const { peer, session } = await initializedPeer(s);
    const errors: Error[] = [];
    const others: string[] = [];
    session.onerror = (e) => errors.push(e);
    session.onnotification = (method) => others.push(method);
    await peer.notify('acme/ping', { n: 5 });
    await peer.notify('acme/ping', { n: 'five' });
    await peer.notify('notifications/roots/list_changed');
    await waitFor(() => others.length === 1, 'the last notification to be read'); // read in order
    expect(got).toEqual([[5, 'legacy', 'test-peer']]);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/acme\/ping was dropped: .*\/n/)]);
    expect(others).toEqual(['notifications/roots/list_changed']);
  });
});

describe('request hooks', () => {
  it('run before every routed request and after it ended, and a before hook can refuse', async () => {
    const s = server();
    const seen: string[] = [];
    const outcomes: RequestOutcome['kind'][] = [];
    s.addTool({ name: 'echo' }, (args) => ({ content: [{ type: 'text', text: String(args.text) }] }));
    const remove = s.addHook({
      async before(req) {
        seen.push(`${req.method}:${req.era}`);
        if (
          req.method === 'tools/call' &&
          (req.params?.arguments as { text?: string } | undefined)?.text === 'forbidden'
        ) {
          throw new McpError(-32003, 'refused by policy');
        }
      },
      after(_req, outcome) {
        outcomes.push(outcome.kind);
      },
    });
    const { peer } = await initializedPeer(s);
    expect(await peer.call('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ text: 'hi' }],
    });
    const refused = await peer.request('tools/call', { name: 'echo', arguments: { text: 'forbidden' } });
    expect(refused.error).toEqual({ code: -32003, message: 'refused by policy' });
    expect(seen).toEqual(['initialize:legacy', 'tools/call:legacy', 'tools/call:legacy']);
    expect(outcomes).toEqual(['result', 'result', 'error']);
    remove();
    await peer.call('ping');
    expect(seen).toHaveLength(3);
  });

  it('tell after hooks about a cancelled request', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    const outcomes: RequestOutcome[] = [];
    let started = false;
    s.addHook({ after: (_req, outcome) => outcomes.push(outcome) });
    s.addTool({ name: 'wait' }, (_args, ctx) => {
      started = true;
      return new Promise((resolve) => ctx.onAbort(() => resolve({ content: [] })));
    });
    const { peer } = await initializedPeer(s);
    void peer.request('tools/call', { name: 'wait' }, 'w1');
    await waitFor(() => started, 'the handler to start');
    await peer.notify('notifications/cancelled', { requestId: 'w1', reason: 'enough' });
    await waitFor(() => outcomes.length > 0, 'the after hook');
    expect(outcomes.at(-1)).toEqual({ kind: 'abandoned', reason: 'enough' });
  });
});
