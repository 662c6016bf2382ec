// Tests of the JSON-RPC envelope, limits and batches in the core.
import { describe, expect, it } from 'vitest';
import { connectInMemory, initializedPeer } from '../../test/support/in-memory.js';
import { Peer } from '../../test/support/peer.js';
import { McpServer } from './server.js';

const server = () => new McpServer({ name: 't', version: '1' }, { maxJsonDepth: 8, maxJsonElements: 50 });

async function raw(text: string, init = true): Promise<Peer> {
  const { handle } = await connectInMemory(server());
  const peer = new Peer(handle);
  if (init) await peer.initialize();
  await handle.sendRaw?.(text);
  return peer;
}

const firstError = (peer: Peer) => peer.waitFor((m) => m.error !== undefined);

describe('JSON-RPC envelope', () => {
  it('answers unparseable text with -32700 and id null', async () => {
    const error = await firstError(await raw('{"jsonrpc":'));
    expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers a non-object with -32600 and id null', async () => {
    const error = await firstError(await raw('42'));
    expect(error).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers a wrong jsonrpc version with -32600 naming /jsonrpc and echoing the id', async () => {
    const error = await firstError(await raw('{"jsonrpc":"1.0","id":7,"method":"ping"}'));
    expect(error).toMatchObject({ id: 7, error: { code: -32600, data: { pointer: '/jsonrpc' } } });
  });

  it('refuses a null id on a request', async () => {
    const error = await firstError(await raw('{"jsonrpc":"2.0","id":null,"method":"ping"}'));
    expect(error).toMatchObject({ id: null, error: { code: -32600, data: { pointer: '/id' } } });
  });

  it('refuses array params with -32602 and non-object params with -32600', async () => {
    const a = await firstError(await raw('{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}'));
    expect(a).toMatchObject({ id: 1, error: { code: -32602, data: { pointer: '/params' } } });
    const b = await firstError(await raw('{"jsonrpc":"2.0","id":2,"method":"ping","params":"x"}'));
    expect(b).toMatchObject({ id: 2, error: { code: -32600, data: { pointer: '/params' } } });
  });

  it('answers an unknown method with -32601 naming it', async () => {
    const error = await firstError(await raw('{"jsonrpc":"2.0","id":"a","method":"tools/destroy"}'));
    expect(error).toMatchObject({
      id: 'a',
      error: { code: -32601, message: 'Method not found: tools/destroy' },
    });
  });

  it('never answers a notification, known or not', async () => {
    const peer = await raw('{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}');
    await peer.notify('notifications/initialized');
    await peer.call('ping'); // an answer to either notification would have come before this one
    expect(peer.received.filter((m) => m.error !== undefined)).toHaveLength(0);
  });

  it('ignores responses to ids it never sent', async () => {
    const peer = await raw('{"jsonrpc":"2.0","id":999,"result":{}}');
    expect(await peer.call('ping')).toEqual({}); // read after the stray response, which it outlived
    expect(peer.received.filter((m) => m.error !== undefined)).toHaveLength(0);
  });

  it('refuses a request id already in flight', async () => {
    const s = server();
    s.addTool({ name: 'hang' }, () => new Promise(() => {}));
    const { peer } = await initializedPeer(s);
    void peer.request('tools/call', { name: 'hang' }, 5);
    const second = await peer.request('ping', undefined, 5);
    expect(second.error).toMatchObject({ code: -32600 });
  });

  it('enforces maxJsonDepth and maxJsonElements with -32600', async () => {
    const deep = await firstError(
      await raw(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { a: [[[[[[[[[1]]]]]]]]] } }),
      ),
    );
    expect(deep).toMatchObject({ id: 1, error: { code: -32600 } });
    expect((deep.error as { message: string }).message).toContain('maxJsonDepth (8)');
    const wide = await firstError(
      await raw(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { a: Array(60).fill(0) } })),
    );
    expect((wide.error as { message: string }).message).toContain('maxJsonElements (50)');
  });
});

describe('batches', () => {
  it('are refused under 2025-11-25 (removed in 2025-06-18)', async () => {
    const { peer, session } = await initializedPeer(server());
    expect(session.client?.protocolVersion).toBe('2025-11-25');
    await peer.handle.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    const error = await firstError(peer);
    expect(error).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('are served under 2025-03-26 and answered with one array', async () => {
    const { peer } = await initializedPeer(server(), {}, '2025-03-26');
    await peer.handle.send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { jsonrpc: '2.0', id: 4, method: 'ping', params: [] },
    ]);
    const batch = (await peer.waitFor((m) => Array.isArray(m))) as unknown as Record<string, unknown>[];
    expect(batch).toHaveLength(4);
    const byId = new Map(batch.map((m) => [m.id, m]));
    expect(byId.get(1)?.result).toEqual({});
    expect(byId.get(2)?.error).toMatchObject({ code: -32601 });
    expect(byId.get(3)?.error).toMatchObject({ code: -32601 }); // no tools: the capability is not declared
    expect(byId.get(4)?.error).toMatchObject({ code: -32602 });
  });

  it('refuses a whole batch holding an element that is not a JSON-RPC message', async () => {
    const { peer } = await initializedPeer(server(), {}, '2025-03-26');
    await peer.handle.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 5]);
    expect(await firstError(peer)).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch element is not a JSON-RPC 2.0 message' },
    });
  });

  it('refuses an empty batch', async () => {
    const { peer } = await initializedPeer(server(), {}, '2025-03-26');
    await peer.handle.send([]);
    expect(await firstError(peer)).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
