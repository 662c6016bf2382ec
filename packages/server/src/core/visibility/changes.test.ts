// list_changed follows what each caller sees: a change reaches the sessions (2025) and listen streams
// (2026-07-28) whose lists it changed, and no others; a session's new token counts as a change.
import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../../../test/support/in-memory.js';
import { ModernPeer } from '../../../test/support/modern.js';
import { Peer } from '../../../test/support/peer.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';

const ADMIN = { auth: { token: 'admin-token', scopes: ['admin'], claims: {} }, principal: 'p-admin' };
const READER = { auth: { token: 'reader-token', scopes: ['read'], claims: {} }, principal: 'p-reader' };
const TOOLS = 'notifications/tools/list_changed';
const PROMPTS = 'notifications/prompts/list_changed';
const RESOURCES = 'notifications/resources/list_changed';

const noop = () => ({ content: [text('ok')] });

async function session(server: McpServer, context: { auth: unknown; principal?: string }): Promise<Peer> {
  const { handle } = await connectInMemory(server, { context });
  const peer = new Peer(handle);
  await peer.initialize();
  return peer;
}

/** The list_changed notifications `peer` got so far; a ping first, so everything sent before is in. */
async function changes(peer: Peer): Promise<string[]> {
  await peer.call('ping');
  const got = peer.notifications.map((m) => m.method as string).filter((m) => m.endsWith('list_changed'));
  peer.notifications.length = 0;
  return got;
}

describe('list_changed per caller on 2025-11-25', () => {
  it('a change goes to the sessions whose list it changed, and only those', async () => {
    const server = new McpServer({ name: 'c', version: '1' });
    server.addTool({ name: 'open' }, noop);
    const admin = await session(server, ADMIN);
    const reader = await session(server, READER);
    const purge = server.addTool({ name: 'purge', scopes: ['admin'] }, noop);
    expect(await changes(admin)).toEqual([TOOLS]);
    expect(await changes(reader)).toEqual([]);
    server.addPrompt({ name: 'audit', scopes: ['admin'] }, () => []);
    server.addResource({ uri: 'mem://r', name: 'r', scopes: ['read'] }, (uri) => [{ uri, text: '' }]);
    expect(await changes(admin)).toEqual([PROMPTS]);
    expect(await changes(reader)).toEqual([RESOURCES]);
    purge.update({ scopes: ['read'] });
    expect(await changes(admin)).toEqual([TOOLS]);
    expect(await changes(reader)).toEqual([TOOLS]);
    purge.remove();
    expect(await changes(admin)).toEqual([]);
    expect(await changes(reader)).toEqual([TOOLS]);
    server.addTool({ name: 'both' }, noop);
    expect(await changes(admin)).toEqual([TOOLS]);
    expect(await changes(reader)).toEqual([TOOLS]);
    // Added and removed in one tick: the list is as before, yet who could see the item is told.
    server.addTool({ name: 'flash', scopes: ['admin'] }, noop).remove();
    expect(await changes(admin)).toEqual([TOOLS]);
    expect(await changes(reader)).toEqual([]);
    server.addTool({ name: 'flash-all' }, noop).remove();
    expect(await changes(admin)).toEqual([TOOLS]);
    expect(await changes(reader)).toEqual([TOOLS]);
  });

  it('a new token with other scopes on the same session is a change; one with the same view is not', async () => {
    const server = new McpServer({ name: 't', version: '1' });
    server.addTool({ name: 'purge', scopes: ['admin'] }, noop);
    server.addPrompt({ name: 'hello' }, () => []);
    const context = { auth: READER.auth as unknown, principal: 'p-one' };
    const peer = await session(server, context);
    expect(await changes(peer)).toEqual([]);
    context.auth = { token: 'refreshed-1', scopes: ['read', 'admin'], claims: {} };
    expect(await changes(peer)).toEqual([TOOLS]);
    expect((await peer.call('tools/list')).tools).toHaveLength(1);
    context.auth = { token: 'refreshed-2', scopes: ['admin'], claims: {} };
    expect(await changes(peer)).toEqual([]);
    context.auth = { token: 'refreshed-3', scopes: [], claims: {} };
    expect(await changes(peer)).toEqual([TOOLS]);
  });

  it('visibilityChanged() asks the rules again and tells those whose view moved', async () => {
    const server = new McpServer({ name: 'f', version: '1' });
    const beta = new Set<string>();
    server.addTool(
      { name: 'beta', visible: (c) => c.principal !== undefined && beta.has(c.principal) },
      noop,
    );
    const admin = await session(server, ADMIN);
    const reader = await session(server, READER);
    beta.add('p-reader');
    server.visibilityChanged();
    expect(await changes(reader)).toEqual([TOOLS]);
    expect(await changes(admin)).toEqual([]);
  });

  it('a resource update reaches a subscriber only when it may see the resource', async () => {
    const server = new McpServer({ name: 'u', version: '1' }, { capabilities: { subscribe: true } });
    server.addResource({ uri: 'mem://secret', name: 's', scopes: ['admin'] }, (uri) => [{ uri, text: '' }]);
    const admin = await session(server, ADMIN);
    const reader = await session(server, READER);
    for (const peer of [admin, reader]) await peer.call('resources/subscribe', { uri: 'mem://secret' });
    server.notifyResourceUpdated('mem://secret');
    await admin.waitForNotification('notifications/resources/updated');
    await reader.call('ping');
    expect(reader.notifications.filter((m) => m.method === 'notifications/resources/updated')).toEqual([]);
  });
});

describe('list_changed per caller on 2026-07-28 listen streams', () => {
  async function listener(server: McpServer, context: object): Promise<ModernPeer> {
    const { handle } = await connectInMemory(server, { context });
    const peer = new ModernPeer(handle);
    void peer.modern('subscriptions/listen', {
      notifications: { toolsListChanged: true, promptsListChanged: true },
    });
    await peer.waitForNotification('notifications/subscriptions/acknowledged');
    return peer;
  }

  async function heard(peer: ModernPeer): Promise<string[]> {
    await peer.modern('server/discover');
    const got = peer.notifications.map((m) => m.method as string).filter((m) => m.endsWith('list_changed'));
    peer.notifications.length = 0;
    return got;
  }

  it('a change reaches the streams whose list it changed; visibilityChanged() too', async () => {
    const server = new McpServer({ name: 'l', version: '1' });
    const admin = await listener(server, ADMIN);
    const reader = await listener(server, READER);
    server.addTool({ name: 'purge', scopes: ['admin'] }, noop);
    server.addPrompt({ name: 'for-readers', scopes: ['read'] }, () => []);
    expect(await heard(admin)).toEqual([TOOLS]);
    expect(await heard(reader)).toEqual([PROMPTS]);
    let open = false;
    server.addTool({ name: 'later', visible: () => open }, noop);
    expect(await heard(admin)).toEqual([]);
    open = true;
    server.visibilityChanged();
    expect(await heard(admin)).toEqual([TOOLS]);
    expect(await heard(reader)).toEqual([TOOLS]);
    server.notifyPromptsChanged();
    expect(await heard(admin)).toEqual([PROMPTS]);
  });
});
