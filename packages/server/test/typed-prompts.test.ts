/** Prompts typed like tools (argsSchema: zod, JSON Schema), and resource templates that list their resources. */

import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { LocalError, McpServer, text } from '../src/index.js';
import { initializedPeer } from './support/in-memory.js';
import { modernPeer } from './support/modern.js';

function server(): McpServer {
  const s = new McpServer({ name: 'p', version: '1' });
  s.addPrompt(
    {
      name: 'greet',
      argsSchema: z.object({
        who: z.string().min(2).describe('whom to greet'),
        tone: z.enum(['warm', 'dry']).default('warm'),
      }),
      complete: { tone: () => ['warm', 'dry'] },
    },
    ({ who, tone }) => {
      expectTypeOf(who).toEqualTypeOf<string>();
      expectTypeOf(tone).toEqualTypeOf<'warm' | 'dry'>();
      return [{ role: 'user', content: text(`${tone} hello ${who}`) }];
    },
  );
  s.addPrompt(
    {
      name: 'count',
      argsSchema: {
        type: 'object',
        properties: { n: { type: 'string', pattern: '^[0-9]+$', title: 'N' } },
        required: ['n'],
      },
    },
    (args) => {
      expectTypeOf(args.n).toEqualTypeOf<string>();
      return [{ role: 'user', content: text(`count to ${args.n}`) }];
    },
  );
  return s;
}

describe('prompts with argsSchema', () => {
  it('list arguments made from the schema, in both eras', async () => {
    const expected = [
      { name: 'count', arguments: [{ name: 'n', title: 'N', required: true }] },
      {
        name: 'greet',
        arguments: [
          { name: 'who', description: 'whom to greet', required: true },
          { name: 'tone', required: false },
        ],
      },
    ];
    const { peer } = await initializedPeer(server());
    expect((await peer.call('prompts/list')).prompts).toEqual(expected);
    const modern = await modernPeer(server());
    expect((await modern.modern('prompts/list')).result).toMatchObject({ prompts: expected });
  });

  it('hand the handler the schema’s output (defaults apply)', async () => {
    const { peer } = await initializedPeer(server());
    const got = await peer.call('prompts/get', { name: 'greet', arguments: { who: 'Ada' } });
    expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'warm hello Ada' } }]);
  });

  it('refuse arguments the schema refuses, -32602 naming the pointer', async () => {
    const { peer } = await initializedPeer(server());
    const short = await peer.request('prompts/get', { name: 'greet', arguments: { who: 'A' } });
    expect(short.error).toMatchObject({ code: -32602, data: { pointer: '/params/arguments/who' } });
    expect((short.error as { message: string }).message).toMatch(
      /^Invalid params: arguments of prompt greet: \/who /,
    );
    const tone = await peer.request('prompts/get', { name: 'greet', arguments: { who: 'Ada', tone: 'hot' } });
    expect(tone.error).toMatchObject({ code: -32602, data: { pointer: '/params/arguments/tone' } });
    const count = await peer.request('prompts/get', { name: 'count', arguments: { n: 'ten' } });
    expect(count.error).toMatchObject({ code: -32602, data: { pointer: '/params/arguments/n' } });
    const missing = await peer.request('prompts/get', { name: 'count', arguments: {} });
    expect((missing.error as { message: string }).message).toContain('needs the argument "n"');
  });

  it('refuse at registration both argsSchema and arguments, or a schema that is not an object', () => {
    const s = new McpServer({ name: 'p', version: '1' });
    const both = () =>
      s.addPrompt(
        { name: 'b', argsSchema: z.object({ a: z.string() }), arguments: [{ name: 'a' }] },
        () => [],
      );
    expect(both).toThrow(/both argsSchema and arguments/);
    expect(() => s.addPrompt({ name: 's', argsSchema: z.string() as never }, () => [])).toThrow(LocalError);
    expect(() => s.addPrompt({ name: 's', argsSchema: z.string() as never }, () => [])).toThrow(
      /argsSchema of prompt "s" must describe an object with properties/,
    );
  });
});

describe('resource templates with a list callback', () => {
  function withLists(): McpServer {
    const s = new McpServer({ name: 'r', version: '1' }, { pageSize: 2 });
    s.addResource({ uri: 'db://tables/b', name: 'b (fixed)' }, (uri) => [{ uri, text: 'fixed' }]);
    s.addResourceTemplate(
      {
        uriTemplate: 'db://tables/{name}',
        name: 'table',
        list: async () => ({
          resources: [
            { uri: 'db://tables/c', name: 'c' },
            { uri: 'db://tables/a', name: 'a' },
            { uri: 'db://tables/b', name: 'b (listed)' },
          ],
        }),
      },
      (uri, { name }) => [{ uri, text: `table ${name}` }],
    );
    s.addResourceTemplate({ uriTemplate: 'db://views/{name}', name: 'view', list: () => [] }, (uri) => [
      { uri, text: 'view' },
    ]);
    return s;
  }

  it('resources/list adds what the callbacks name, by URI, fixed resources first among equals, in pages', async () => {
    const { peer } = await initializedPeer(withLists());
    const first = await peer.call('resources/list');
    const second = await peer.call('resources/list', { cursor: first.nextCursor });
    expect([...(first.resources as object[]), ...(second.resources as object[])]).toEqual([
      { uri: 'db://tables/a', name: 'a' },
      { uri: 'db://tables/b', name: 'b (fixed)' },
      { uri: 'db://tables/c', name: 'c' },
    ]);
    expect(second.nextCursor).toBeUndefined();
    const read = await peer.call('resources/read', { uri: 'db://tables/a' });
    expect(read.contents).toEqual([{ uri: 'db://tables/a', text: 'table a' }]);
    const modern = await modernPeer(withLists());
    expect(
      ((await modern.modern('resources/list')).result as { resources: object[] }).resources,
    ).toHaveLength(2);
  });

  it('a listed URI the template does not match is an internal error naming the template', async () => {
    const s = new McpServer({ name: 'r', version: '1' });
    s.addResourceTemplate(
      {
        uriTemplate: 'db://tables/{name}',
        name: 'table',
        list: () => [{ uri: 'file:///etc/passwd', name: 'x' }],
      },
      (uri) => [{ uri, text: '' }],
    );
    const { peer } = await initializedPeer(s);
    const answer = await peer.request('resources/list');
    expect(answer.error).toMatchObject({ code: -32603 });
    expect((answer.error as { message: string }).message).toContain(
      'db://tables/{name} returned file:///etc/passwd',
    );
  });
});
