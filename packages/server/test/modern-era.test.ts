/** The 2026-07-28 era in the core: era per request, envelope checks, results, removed methods, pinning. */

import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, text } from '../src/index.js';
import { connectInMemory } from './support/in-memory.js';
import { modernPeer } from './support/modern.js';
import { envelope, MODERN } from './support/modern-envelope.js';
import { Peer } from './support/peer.js';

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function makeServer(): McpServer {
  const server = new McpServer(
    { name: 'modern-test', version: '1.2.3', instructions: 'be kind' },
    { cache: { methods: { 'tools/list': { ttlMs: 5000, cacheScope: 'public' } } } },
  );
  server.addTool({ name: 'zeta' }, (_a, ctx) => ({ content: [text(`${ctx.era} ${ctx.protocolVersion}`)] }));
  server.addTool({ name: 'alpha' }, (_a, ctx) => {
    ctx.log('info', 'hello');
    ctx.log('debug', 'too low');
    return { content: [text('a')] };
  });
  server.addResource({ uri: 'test://r', name: 'r' }, (uri) => [{ uri, text: 'x' }]);
  servers.push(server);
  return server;
}

describe('the modern era on one connection', () => {
  it('server/discover needs the envelope, answers it, and pins nothing', async () => {
    const server = makeServer();
    const peer = new Peer((await connectInMemory(server)).handle);
    expect((await peer.request('server/discover')).error).toMatchObject({ code: -32602 });
    const probe = await peer.call('server/discover', { _meta: envelope() });
    expect(probe.supportedVersions).toEqual([MODERN]);
    expect(probe.instructions).toBe('be kind');
    expect(probe.resultType).toBe('complete');
    expect(probe.cacheScope).toBe('private');
    expect((probe._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'modern-test',
    });
    // Nothing pinned: the legacy handshake still works on the same connection.
    const init = await peer.initialize({}, '2025-11-25');
    expect(init.protocolVersion).toBe('2025-11-25');
  });

  it('serves tools/list in name order with caching hints, and tools/call with resultType', async () => {
    const peer = await modernPeer(makeServer());
    const list = (await peer.modern('tools/list')).result as Record<string, unknown>;
    expect((list.tools as { name: string }[]).map((t) => t.name)).toEqual(['alpha', 'zeta']);
    expect([list.ttlMs, list.cacheScope, list.resultType]).toEqual([5000, 'public', 'complete']);
    const call = (await peer.modern('tools/call', { name: 'zeta' })).result as Record<string, unknown>;
    expect(call.content).toEqual([{ type: 'text', text: `modern ${MODERN}` }]);
    expect(call.resultType).toBe('complete');
    const read = (await peer.modern('resources/read', { uri: 'test://r' })).result as Record<string, unknown>;
    expect([read.ttlMs, read.cacheScope]).toEqual([0, 'private']);
  });

  it('refuses an incomplete or unsupported envelope with the spec codes', async () => {
    const peer = await modernPeer(makeServer());
    const noCaps = await peer.request('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN },
    });
    expect(noCaps.error).toMatchObject({ code: -32602 });
    expect(JSON.stringify(noCaps.error)).toContain('clientCapabilities');
    const future = await peer.request('tools/list', {
      _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    });
    expect(future.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '2099-01-01' },
    });
  });

  it('answers removed methods -32601, and initialize after pinning -32022', async () => {
    const peer = await modernPeer(makeServer());
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'tasks/get']) {
      expect((await peer.modern(method)).error, method).toMatchObject({ code: -32601 });
    }
    const init = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(init.error).toMatchObject({ code: -32022 });
    // A pinned connection treats a request without the envelope as a modern one missing it.
    expect((await peer.request('tools/list', {})).error).toMatchObject({ code: -32602 });
  });

  it('an initialized connection stays legacy and reports its era to handlers', async () => {
    const server = makeServer();
    const peer = new Peer((await connectInMemory(server)).handle);
    await peer.initialize({}, '2025-11-25');
    const call = await peer.call('tools/call', { name: 'zeta', arguments: {} });
    expect(call.content).toEqual([{ type: 'text', text: 'legacy 2025-11-25' }]);
    expect(call.resultType).toBeUndefined();
  });

  it('sends log messages only when the request set a log level, at or above it', async () => {
    const peer = await modernPeer(makeServer());
    await peer.modern('tools/call', { name: 'alpha' });
    expect(peer.notifications.filter((n) => n.method === 'notifications/message')).toEqual([]);
    await peer.modern('tools/call', { name: 'alpha', _meta: envelope({}, 'info') });
    const logs = peer.notifications.filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => (n.params as { data: unknown }).data)).toEqual(['hello']);
  });

  it('answers resource not found with -32602 naming the uri', async () => {
    const peer = await modernPeer(makeServer());
    const missing = await peer.modern('resources/read', { uri: 'test://nope' });
    expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'test://nope' } });
  });
});
