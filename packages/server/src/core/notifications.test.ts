// Tests of server-wide and per-session notifications and close.
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { connectInMemory, initializedPeer } from '../../test/support/in-memory.js';
import { Peer } from '../../test/support/peer.js';
import { text } from './content.js';
import { McpServer } from './server.js';

describe('server-wide and per-session notifications', () => {
  it('server.notify reaches every initialized session and no uninitialized one', async () => {
    const server = new McpServer({ name: 'n', version: '1' });
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    const { handle } = await connectInMemory(server);
    const silent = new Peer(handle);
    server.notify('notifications/custom', { n: 1 });
    for (const peer of [a.peer, b.peer]) {
      const note = await peer.waitForNotification('notifications/custom');
      expect(note.params).toEqual({ n: 1 });
    }
    await silent.call('ping');
    expect(silent.notifications).toHaveLength(0);
  });

  it('notify*Changed wrappers send the spec methods', async () => {
    const server = new McpServer({ name: 'n', version: '1' });
    const { peer } = await initializedPeer(server);
    server.notifyToolsChanged();
    server.notifyResourcesChanged();
    server.notifyPromptsChanged();
    await peer.call('ping');
    expect(peer.notifications.map((m) => m.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/list_changed',
      'notifications/prompts/list_changed',
    ]);
  });

  it('ctx.notify and session.notify go to that client only; unknown client notifications reach onnotification', async () => {
    const server = new McpServer({ name: 'n', version: '1' });
    server.addTool({ name: 'ping_me' }, (_a, ctx) => {
      ctx.notify('notifications/custom', { from: 'tool' });
      return { content: [text('ok')] };
    });
    const a = await initializedPeer(server);
    const b = await initializedPeer(server);
    const seen: unknown[] = [];
    a.session.onnotification = (method, params) => seen.push({ method, params });
    await a.peer.call('tools/call', { name: 'ping_me' });
    b.session.notify('notifications/direct');
    await a.peer.notify('notifications/roots/list_changed');
    await b.peer.waitForNotification('notifications/direct');
    await a.peer.call('ping');
    expect(a.peer.notifications.map((m) => m.method)).toEqual(['notifications/custom']);
    expect(seen).toEqual([{ method: 'notifications/roots/list_changed', params: undefined }]);
  });

  it('server.close() aborts running handlers, sends nothing more, and refuses new connections', async () => {
    const server = new McpServer({ name: 'n', version: '1' });
    let aborted = false;
    let started = false;
    server.addTool({ name: 'hang' }, (_a, ctx) => {
      started = true;
      return new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ content: [] });
        });
      });
    });
    const { peer } = await initializedPeer(server);
    void peer.request('tools/call', { name: 'hang' }, 'h');
    await waitFor(() => started, 'the handler to start');
    await server.close();
    expect(aborted).toBe(true);
    expect(server.sessions.size).toBe(0);
    expect(peer.received.filter((m) => m.id === 'h')).toHaveLength(0);
    await expect(connectInMemory(server)).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('an exception from an application callback is answered and reported, never thrown into the transport', async () => {
    const server = new McpServer({ name: 'n', version: '1' });
    const { peer, session } = await initializedPeer(server);
    const errors: string[] = [];
    session.onerror = (error) => errors.push(error.message);
    session.onnotification = () => {
      throw new Error('callback broke');
    };
    await peer.notify('notifications/anything');
    expect(await peer.call('ping')).toEqual({});
    expect(errors).toEqual(['callback broke']);
    expect(peer.received.filter((m) => m.error !== undefined)).toEqual([]);
  });
});
