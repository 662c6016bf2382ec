// Tests of initialize, version negotiation and the uninitialized state.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { connectInMemory, initializedPeer } from '../../test/support/in-memory.js';
import { Peer } from '../../test/support/peer.js';
import { recordingTransport } from '../../test/support/recording-transport.js';
import { McpServer } from './server.js';

const info = {
  name: 'life',
  version: '2.0.0',
  title: 'Life',
  description: 'A server for lifecycle tests',
  instructions: 'Use the tools.',
  websiteUrl: 'https://example.com',
};

async function fresh(server = new McpServer(info)) {
  const { handle, session } = await connectInMemory(server);
  return { peer: new Peer(handle), session, server };
}

describe('initialize', () => {
  it('returns serverInfo (with description), instructions and the negotiated version', async () => {
    const { peer } = await fresh();
    const result = await peer.initialize();
    expect(result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { logging: {} },
      serverInfo: {
        name: 'life',
        version: '2.0.0',
        title: 'Life',
        description: 'A server for lifecycle tests',
        websiteUrl: 'https://example.com',
      },
      instructions: 'Use the tools.',
    });
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'accepts protocol version %s',
    async (v) => {
      const { peer, session } = await fresh();
      expect((await peer.initialize({}, v)).protocolVersion).toBe(v);
      expect(session.client?.protocolVersion).toBe(v);
    },
  );

  it('answers an unknown version with the latest it supports', async () => {
    const { peer } = await fresh();
    expect((await peer.initialize({}, '1999-01-01')).protocolVersion).toBe('2025-11-25');
  });

  it('needs params.protocolVersion (-32602 naming the pointer)', async () => {
    const { peer } = await fresh();
    const answer = await peer.request('initialize', { capabilities: {} });
    expect(answer.error).toMatchObject({ code: -32602, data: { pointer: '/params/protocolVersion' } });
  });

  it('records client info and capabilities for handlers', async () => {
    const server = new McpServer(info);
    let seen: unknown;
    server.addTool({ name: 'who' }, (_a, ctx) => {
      seen = ctx.client;
      return { content: [] };
    });
    const { peer } = await fresh(server);
    await peer.initialize({ sampling: {} }, '2025-06-18');
    await peer.call('tools/call', { name: 'who' });
    expect(seen).toEqual({
      protocolVersion: '2025-06-18',
      capabilities: { sampling: {} },
      info: { name: 'test-peer', version: '1.0.0' },
    });
  });

  it('refuses a second initialize on the same connection', async () => {
    const { peer } = await fresh();
    await peer.initialize();
    const again = await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
    expect(again.error).toMatchObject({ code: -32600 });
  });

  it('refuses requests before initialize, except ping', async () => {
    const { peer } = await fresh();
    expect(await peer.call('ping')).toEqual({});
    const early = await peer.request('tools/list');
    expect(early.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining('before initialize'),
    });
  });

  it('serves requests without initialize when the connection allows it (stateless HTTP)', async () => {
    const server = new McpServer(info);
    let version: string | undefined;
    server.addTool({ name: 'v' }, (_a, ctx) => {
      version = ctx.client.protocolVersion;
      return { content: [] };
    });
    const { handle } = await connectInMemory(server, {
      allowUninitialized: true,
      context: { protocolVersion: '2025-06-18' },
    });
    const peer = new Peer(handle);
    expect((await peer.call('tools/list')).tools).toHaveLength(1);
    await peer.call('tools/call', { name: 'v' });
    expect(version).toBe('2025-06-18');
  });
});

describe('capabilities', () => {
  it('are advertised from what is registered and from the options', async () => {
    const server = new McpServer(info, { capabilities: { subscribe: true, logging: false } });
    server.addTool({ name: 't' }, () => ({ content: [] }));
    server.addPrompt({ name: 'p', complete: { x: () => [] } }, () => []);
    const { peer } = await initializedPeer(server);
    expect(peer.initializeResult?.capabilities).toEqual({
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
    });
  });

  it('omits listChanged when turned off', async () => {
    const server = new McpServer(info, { capabilities: { listChanged: false, tools: true } });
    const { peer } = await fresh(server);
    const result = await peer.initialize();
    expect(result.capabilities).toEqual({ logging: {}, tools: {} });
  });

  it('ping answers an empty result', async () => {
    const { peer } = await initializedPeer(new McpServer(info));
    expect(await peer.call('ping')).toEqual({});
  });
});

describe('server and sessions', () => {
  it('one server serves many connections over shared registries', async () => {
    const server = new McpServer(info);
    server.addTool({ name: 'shared' }, () => ({ content: [] }));
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    expect(server.sessions.size).toBe(2);
    expect(((await a.peer.call('tools/list')).tools as unknown[]).length).toBe(1);
    expect(((await b.peer.call('tools/list')).tools as unknown[]).length).toBe(1);
    await a.session.close();
    expect(server.sessions.size).toBe(1);
    await server.close();
    expect(server.sessions.size).toBe(0);
  });

  it('validates its options', () => {
    expect(() => new McpServer(info, { maxConcurrency: 0 })).toThrow(/maxConcurrency/);
    expect(() => new McpServer({ name: 'x' } as never)).toThrow(/version/);
  });
});

describe('protocol context per request', () => {
  it('comes from each message when the connection has no initialize (the seam a later revision uses)', async () => {
    const server = new McpServer(info);
    const seen: string[] = [];
    server.addTool({ name: 'v' }, (_a, ctx) => {
      seen.push(ctx.client.protocolVersion);
      return { content: [] };
    });
    const transport = recordingTransport();
    const sent = transport.sent;
    await server.connect(transport, { allowUninitialized: true });
    const call = (id: number, protocolVersion: string) =>
      transport.deliver(
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'v' } },
        { protocolVersion },
      );
    call(1, '2025-06-18');
    call(2, '2025-11-25');
    call(3, '2025-03-26');
    await waitFor(() => sent.length >= 3, 'the three answers');
    expect(seen).toEqual(['2025-06-18', '2025-11-25', '2025-03-26']);
  });
});
