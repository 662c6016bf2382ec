// Per-caller visibility over memory, both eras: lists hold what the caller may see (paged after
// filtering), and a hidden item is refused with the very bytes an unknown one gets.
import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../../../test/support/in-memory.js';
import { ModernPeer } from '../../../test/support/modern.js';
import { Peer } from '../../../test/support/peer.js';
import { text } from '../content.js';
import { McpServer } from '../server.js';
import type { Caller } from '../types.js';

const ADMIN = { auth: { token: 'admin-token', scopes: ['read', 'admin'], claims: {} }, principal: 'p-admin' };
const READER = { auth: { token: 'reader-token', scopes: ['read'], claims: {} }, principal: 'p-reader' };

/** Every kind twice: once for all, once for admins only (scopes), plus a predicate on the principal. */
function gated(options: { pageSize?: number } = {}): McpServer {
  const server = new McpServer({ name: 'v', version: '1' }, options);
  const onlyReader = (caller: Caller) => caller.principal === 'p-reader';
  server.addTool({ name: 'open' }, () => ({ content: [text('open')] }));
  server.addTool({ name: 'purge', scopes: ['admin'] }, () => ({ content: [text('purged')] }));
  server.addTool({ name: 'mine', visible: onlyReader }, () => ({ content: [text('mine')] }));
  server.addPrompt({ name: 'hello' }, () => []);
  server.addPrompt({ name: 'audit', scopes: ['admin'], complete: { x: () => ['a'] } }, () => []);
  server.addResource({ uri: 'mem://open', name: 'open' }, (uri) => [{ uri, text: 'open' }]);
  server.addResource({ uri: 'mem://secret', name: 'secret', scopes: ['admin'] }, (uri) => [
    { uri, text: 'secret' },
  ]);
  server.addResourceTemplate(
    {
      uriTemplate: 'mem://vault/{id}',
      name: 'vault',
      scopes: ['admin'],
      complete: { id: () => ['1'] },
      list: () => [{ uri: 'mem://vault/1', name: 'one' }],
    },
    (uri) => [{ uri, text: 'vault' }],
  );
  return server;
}

type Call = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function legacy(server: McpServer, context?: object): Promise<Call> {
  const { handle } = await connectInMemory(server, context === undefined ? {} : { context });
  const peer = new Peer(handle);
  await peer.initialize();
  return (method, params) => peer.request(method, params);
}

async function modern(server: McpServer, context?: object): Promise<Call> {
  const { handle } = await connectInMemory(server, context === undefined ? {} : { context });
  const peer = new ModernPeer(handle);
  return (method, params) => peer.modern(method, params);
}

const ERAS = [
  ['2025-11-25', legacy],
  ['2026-07-28', modern],
] as const;

const names = (result: unknown, key: string, field = 'name'): string[] =>
  ((result as Record<string, Record<string, string>[]>)[key] ?? []).map((item) => item[field] as string);

describe.each(ERAS)('visibility on %s', (_era, connect) => {
  it('lists only what the caller may see, and never sends scopes or visible', async () => {
    const server = gated();
    const admin = await connect(server, ADMIN);
    const reader = await connect(server, READER);
    const nobody = await connect(server);
    const tools = async (call: Call) => names((await call('tools/list')).result, 'tools');
    expect(await tools(admin)).toEqual(['open', 'purge']);
    expect(await tools(reader)).toEqual(['mine', 'open']);
    expect(await tools(nobody)).toEqual(['open']);
    expect(names((await reader('prompts/list')).result, 'prompts')).toEqual(['hello']);
    expect(names((await admin('prompts/list')).result, 'prompts')).toEqual(['audit', 'hello']);
    expect(names((await reader('resources/list')).result, 'resources', 'uri')).toEqual(['mem://open']);
    expect(names((await admin('resources/list')).result, 'resources', 'uri')).toEqual([
      'mem://open',
      'mem://secret',
      'mem://vault/1',
    ]);
    expect(names((await reader('resources/templates/list')).result, 'resourceTemplates')).toEqual([]);
    expect(names((await admin('resources/templates/list')).result, 'resourceTemplates')).toEqual(['vault']);
    const listed = JSON.stringify([(await admin('tools/list')).result, (await admin('prompts/list')).result]);
    expect(listed).not.toMatch(/scopes|visible/);
  });

  it('refuses a hidden item with the bytes an unknown one gets, and serves it to who may see it', async () => {
    const server = gated();
    const reader = await connect(server, READER);
    const admin = await connect(server, ADMIN);
    const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['tools/call', { name: 'purge' }, { name: 'purge-never-added' }],
      ['prompts/get', { name: 'audit' }, { name: 'audit-never-added' }],
      ['resources/read', { uri: 'mem://secret' }, { uri: 'mem://secret-never-added' }],
      ['resources/read', { uri: 'mem://vault/7' }, { uri: 'mem://vault-never/7' }],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'audit' }, argument: { name: 'x', value: '' } },
        { ref: { type: 'ref/prompt', name: 'audit-never-added' }, argument: { name: 'x', value: '' } },
      ],
      [
        'completion/complete',
        { ref: { type: 'ref/resource', uri: 'mem://vault/{id}' }, argument: { name: 'id', value: '' } },
        { ref: { type: 'ref/resource', uri: 'mem://vault-never/{id}' }, argument: { name: 'id', value: '' } },
      ],
    ];
    for (const [method, hidden, unknown] of pairs) {
      const a = await reader(method, hidden);
      const b = await reader(method, unknown);
      // Each name appears once in its error: swap it to compare the rest byte for byte.
      const nameOf = (params: object): string =>
        /"(?:name|uri)":"([^"]+)"/.exec(JSON.stringify(params))?.[1] ?? '';
      const [hiddenName, unknownName] = [nameOf(hidden), nameOf(unknown)];
      expect(a.error, `${method} ${JSON.stringify(hidden)}`).toBeDefined();
      const bytesA = JSON.stringify(a.error).split(hiddenName).join('NAME');
      const bytesB = JSON.stringify(b.error).split(unknownName).join('NAME');
      expect(bytesA).toBe(bytesB);
      const allowed = await admin(method, hidden);
      expect(allowed.error, `${method} as admin`).toBeUndefined();
    }
  });

  it('pages the filtered list: full pages, each visible item once, then no cursor', async () => {
    const server = new McpServer({ name: 'p', version: '1' }, { pageSize: 2 });
    for (let i = 0; i < 9; i++) {
      const name = `t${i}`;
      server.addTool({ name, ...(i % 3 === 0 ? {} : { scopes: ['admin'] }) }, () => ({
        content: [text(name)],
      }));
    }
    const seen = async (call: Call): Promise<string[][]> => {
      const pages: string[][] = [];
      let cursor: unknown;
      do {
        const result = (await call('tools/list', cursor === undefined ? {} : { cursor })).result as {
          nextCursor?: string;
        };
        pages.push(names(result, 'tools'));
        cursor = result.nextCursor;
      } while (cursor !== undefined);
      return pages;
    };
    expect(await seen(await connect(server, READER))).toEqual([['t0', 't3'], ['t6']]);
    expect((await seen(await connect(server, ADMIN))).flat()).toEqual(
      Array.from({ length: 9 }, (_, i) => `t${i}`),
    );
  });
});

describe('visibility rules', () => {
  it('a rule that throws hides its item; a bad scopes or visible is refused at registration', async () => {
    const server = new McpServer({ name: 'r', version: '1' });
    server.addTool(
      {
        name: 'broken',
        visible: () => {
          throw new Error('no');
        },
      },
      () => ({ content: [] }),
    );
    const call = await legacy(server, ADMIN);
    expect(names((await call('tools/list')).result, 'tools')).toEqual([]);
    const bad = { name: 'x', scopes: 'admin' } as unknown as { name: string };
    expect(() => server.addTool(bad, () => ({ content: [] }))).toThrow(
      'the scopes of tool "x" must be an array of strings',
    );
    const notFn = { name: 'y', visible: true } as unknown as { name: string };
    expect(() => server.addPrompt(notFn, () => [])).toThrow('the visible of prompt "y" must be a function');
  });

  it('a 2026-07-28 list that differs per caller is never marked public for shared caches', async () => {
    const server = new McpServer({ name: 'c', version: '1' }, { cache: { cacheScope: 'public' } });
    server.addTool({ name: 'open' }, () => ({ content: [] }));
    server.addPrompt({ name: 'p' }, () => []);
    const call = await modern(server, READER);
    const scope = async (method: string) =>
      ((await call(method)).result as { cacheScope?: string }).cacheScope;
    expect(await scope('tools/list')).toBe('public');
    server.addTool({ name: 'purge', scopes: ['admin'] }, () => ({ content: [] }));
    expect(await scope('tools/list')).toBe('private');
    expect(await scope('prompts/list')).toBe('public');
  });
});
