// Tests of resources: listing, reading, templates and subscriptions.
import { nextTurn } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { McpServer } from './server.js';

function server(subscribe = true) {
  const s = new McpServer({ name: 'r', version: '1' }, { capabilities: { subscribe }, pageSize: 2 });
  s.addResource({ uri: 'test://a', name: 'a', title: 'A', mimeType: 'text/plain' }, (uri) => [
    { uri, mimeType: 'text/plain', text: 'alpha' },
  ]);
  s.addResource({ uri: 'test://b', name: 'b' }, (uri) => ({ contents: [{ uri, blob: 'AAEC' }] }));
  s.addResource({ uri: 'test://c', name: 'c' }, async () => {
    throw new Error('unreadable');
  });
  s.addResourceTemplate(
    { uriTemplate: 'test://users/{id}/files{/path*}{?v}', name: 'files', complete: { id: () => ['1', '2'] } },
    (uri, vars) => [{ uri, text: JSON.stringify(vars) }],
  );
  return s;
}

describe('resources', () => {
  it('lists resources with pagination and templates', async () => {
    const { peer } = await initializedPeer(server());
    const first = await peer.call('resources/list');
    expect(first.resources).toEqual([
      { uri: 'test://a', name: 'a', title: 'A', mimeType: 'text/plain' },
      { uri: 'test://b', name: 'b' },
    ]);
    const second = await peer.call('resources/list', { cursor: first.nextCursor });
    expect(second).toEqual({ resources: [{ uri: 'test://c', name: 'c' }] });
    expect(await peer.call('resources/templates/list')).toEqual({
      resourceTemplates: [{ uriTemplate: 'test://users/{id}/files{/path*}{?v}', name: 'files' }],
    });
  });

  it('reads a static resource (array or object result) and a templated one with its variables', async () => {
    const { peer } = await initializedPeer(server());
    expect(await peer.call('resources/read', { uri: 'test://a' })).toEqual({
      contents: [{ uri: 'test://a', mimeType: 'text/plain', text: 'alpha' }],
    });
    expect(await peer.call('resources/read', { uri: 'test://b' })).toEqual({
      contents: [{ uri: 'test://b', blob: 'AAEC' }],
    });
    const t = await peer.call('resources/read', { uri: 'test://users/42/files/x/y.txt?v=3' });
    expect(JSON.parse((t.contents as { text: string }[])[0]?.text ?? '')).toEqual({
      id: '42',
      path: ['x', 'y.txt'],
      v: '3',
    });
  });

  it('answers an unknown URI with -32002 and a failing reader with -32603', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.request('resources/read', { uri: 'test://zzz' })).error).toEqual({
      code: -32002,
      message: 'Resource not found: test://zzz',
      data: { uri: 'test://zzz' },
    });
    expect((await peer.request('resources/read', { uri: 'test://c' })).error).toEqual({
      code: -32603,
      message: 'Internal error in resources/read: unreadable',
    });
    expect((await peer.request('resources/read', {})).error).toMatchObject({ code: -32602 });
  });

  it('sends resources/updated only to subscribed sessions, until they unsubscribe', async () => {
    const s = server();
    const a = await initializedPeer(s);
    const b = await initializedPeer(s);
    expect(await a.peer.call('resources/subscribe', { uri: 'test://a' })).toEqual({});
    s.notifyResourceUpdated('test://a');
    s.notifyResourceUpdated('test://b');
    const note = await a.peer.waitForNotification('notifications/resources/updated');
    expect(note.params).toEqual({ uri: 'test://a' });
    await b.peer.call('ping');
    expect(b.peer.notifications).toHaveLength(0);
    await a.peer.call('resources/unsubscribe', { uri: 'test://a' });
    s.notifyResourceUpdated('test://a');
    await a.peer.call('ping');
    expect(a.peer.notifications.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(
      1,
    );
  });

  it('refuses subscriptions when not enabled', async () => {
    const s = server(false);
    const { peer } = await initializedPeer(s);
    expect((await peer.request('resources/subscribe', { uri: 'test://a' })).error).toMatchObject({
      code: -32601,
    });
    expect(() => s.notifyResourceUpdated('test://a')).toThrow(
      expect.objectContaining({ code: 'CAPABILITY_NOT_DECLARED' }),
    );
  });

  it('refuses duplicate URIs and templates; emits resources/list_changed after start', async () => {
    const s = server();
    expect(() => s.addResource({ uri: 'test://a', name: 'again' }, () => [])).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_RESOURCE' }),
    );
    expect(() =>
      s.addResourceTemplate({ uriTemplate: 'test://users/{id}/files{/path*}{?v}', name: 'x' }, () => []),
    ).toThrow(expect.objectContaining({ code: 'DUPLICATE_RESOURCE_TEMPLATE' }));
    const { peer } = await initializedPeer(s);
    s.addResource({ uri: 'test://new', name: 'new' }, () => []);
    await peer.waitForNotification('notifications/resources/list_changed');
  });
});

describe('pagination', () => {
  it('walks every list with opaque cursors and refuses forged ones', async () => {
    const s = new McpServer({ name: 'p', version: '1' }, { pageSize: 3 });
    for (let i = 0; i < 7; i++) s.addTool({ name: `t${i}` }, () => ({ content: [] }));
    for (let i = 0; i < 4; i++) s.addPrompt({ name: `p${i}` }, () => []);
    const { peer } = await initializedPeer(s);
    const names: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = await peer.call('tools/list', cursor === undefined ? {} : { cursor });
      names.push(...(page.tools as { name: string }[]).map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(names).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
    const prompts = await peer.call('prompts/list');
    expect(prompts.nextCursor).toBeTypeOf('string');
    for (const bad of ['garbage', 'p1.zzzzzzzzzzzz', 12, 'p1.zz']) {
      expect((await peer.request('tools/list', { cursor: bad })).error).toMatchObject({ code: -32602 });
    }
    await nextTurn();
  });
});
