// Tests of tools/list and tools/call, validation included.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { text } from './content.js';
import { LocalError, McpError, ToolError } from './errors.js';
import { McpServer } from './server.js';

const schema = {
  type: 'object',
  properties: { n: { type: 'integer', minimum: 0 }, tag: { type: 'string' } },
  required: ['n'],
  additionalProperties: false,
};

function server() {
  const s = new McpServer({ name: 't', version: '1' });
  s.addTool(
    {
      name: 'square',
      title: 'Square',
      description: 'n squared',
      inputSchema: schema,
      outputSchema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
    },
    (args) => {
      const n = args.n as number;
      return { content: [text(String(n * n))], structuredContent: { value: n * n } };
    },
  );
  s.addTool(
    { name: 'bad_output', outputSchema: { type: 'object', properties: { v: { type: 'string' } } } },
    () => ({
      content: [],
      structuredContent: { v: 5 as unknown as string }, // wrong on purpose
    }),
  );
  s.addTool({ name: 'no_structured', outputSchema: { type: 'object' } }, () => ({ content: [] }));
  s.addTool({ name: 'throws' }, () => {
    throw new Error('disk on fire');
  });
  s.addTool({ name: 'rejects' }, async () => {
    throw new TypeError('async boom');
  });
  s.addTool({ name: 'tool_error' }, () => {
    throw new ToolError('file not found');
  });
  s.addTool({ name: 'wire_error' }, () => {
    throw new McpError(-32050, 'custom', { why: 'because' });
  });
  s.addTool({ name: 'returns_junk' }, () => 42 as never);
  s.addTool({ name: 'bigint' }, () => ({ content: [{ type: 'text', text: 1n as never }] }));
  s.addTool(
    {
      name: 'draft7',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'string', format: 'email' } },
        dependencies: { a: ['b'] },
      },
    },
    () => ({ content: [text('ok')] }),
  );
  s.addTool(
    {
      name: 'schema2020',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { list: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
        $defs: { unused: { type: 'string' } },
      },
    },
    () => ({ content: [text('ok')] }),
  );
  return s;
}

describe('tools/list', () => {
  it('lists every field given at registration, with a default inputSchema', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    s.addTool({ name: 'plain' }, () => ({ content: [] }));
    const { peer } = await initializedPeer(s);
    expect(await peer.call('tools/list')).toEqual({
      tools: [{ name: 'plain', inputSchema: { type: 'object' } }],
    });
    const full = (await (await initializedPeer(server())).peer.call('tools/list')).tools as Record<
      string,
      unknown
    >[];
    expect(full.find((t) => t.name === 'square')).toEqual({
      name: 'square',
      title: 'Square',
      description: 'n squared',
      inputSchema: schema,
      outputSchema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
    });
  });
});

describe('tools/call', () => {
  it('returns content and structuredContent', async () => {
    const { peer } = await initializedPeer(server());
    expect(await peer.call('tools/call', { name: 'square', arguments: { n: 7 } })).toEqual({
      content: [{ type: 'text', text: '49' }],
      structuredContent: { value: 49 },
    });
  });

  it('reports invalid arguments as a tool error naming the pointer (2025-11-25)', async () => {
    const { peer } = await initializedPeer(server());
    const result = await peer.call('tools/call', { name: 'square', arguments: { n: -1 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/square: \/n must be >= 0/);
    const missing = await peer.call('tools/call', { name: 'square', arguments: {} });
    expect((missing.content as { text: string }[])[0]?.text).toContain('/n');
  });

  it('reports invalid arguments as -32602 with the JSON pointer before 2025-11-25', async () => {
    const { peer } = await initializedPeer(server(), {}, '2025-06-18');
    const answer = await peer.request('tools/call', { name: 'square', arguments: { n: 1, extra: true } });
    expect(answer.error).toMatchObject({ code: -32602, data: { pointer: '/params/arguments/extra' } });
  });

  it('validates with draft-07 when $schema says so, and 2020-12 otherwise', async () => {
    const { peer } = await initializedPeer(server());
    const dep = await peer.call('tools/call', { name: 'draft7', arguments: { a: 'x@example.com' } });
    expect(dep.isError).toBe(true); // draft-07 `dependencies`: a needs b
    const email = await peer.call('tools/call', { name: 'draft7', arguments: { a: 'nope', b: 1 } });
    expect((email.content as { text: string }[])[0]?.text).toContain('format');
    expect(
      (await peer.call('tools/call', { name: 'draft7', arguments: { a: 'x@example.com', b: 1 } })).isError,
    ).toBe(undefined);
    const prefix = await peer.call('tools/call', { name: 'schema2020', arguments: { list: ['a', 'b'] } });
    expect(prefix.isError).toBe(true); // 2020-12 prefixItems + items:false
    expect((await peer.call('tools/call', { name: 'schema2020', arguments: { list: ['a'] } })).isError).toBe(
      undefined,
    );
  });

  it('answers an unknown tool and malformed params with -32602', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.request('tools/call', { name: 'nope' })).error).toMatchObject({
      code: -32602,
      message: 'Unknown tool: nope',
    });
    expect((await peer.request('tools/call', {})).error).toMatchObject({
      code: -32602,
      data: { pointer: '/params/name' },
    });
    expect((await peer.request('tools/call', { name: 'square', arguments: [1] })).error).toMatchObject({
      code: -32602,
      data: { pointer: '/params/arguments' },
    });
  });

  it('checks structuredContent against outputSchema (-32603)', async () => {
    const { peer } = await initializedPeer(server());
    const bad = await peer.request('tools/call', { name: 'bad_output' });
    expect(bad.error).toMatchObject({ code: -32603, data: { pointer: '/structuredContent/v' } });
    const none = await peer.request('tools/call', { name: 'no_structured' });
    expect(none.error).toMatchObject({ code: -32603 });
    expect((none.error as { message: string }).message).toContain('no structuredContent');
  });

  it('turns a thrown error into -32603 naming the method, a ToolError into isError, an McpError into itself', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.request('tools/call', { name: 'throws' })).error).toEqual({
      code: -32603,
      message: 'Internal error in tools/call: disk on fire',
    });
    expect((await peer.request('tools/call', { name: 'rejects' })).error).toMatchObject({
      code: -32603,
      message: 'Internal error in tools/call: async boom',
    });
    expect(await peer.call('tools/call', { name: 'tool_error' })).toEqual({
      content: [{ type: 'text', text: 'file not found' }],
      isError: true,
    });
    expect((await peer.request('tools/call', { name: 'wire_error' })).error).toEqual({
      code: -32050,
      message: 'custom',
      data: { why: 'because' },
    });
    expect((await peer.request('tools/call', { name: 'returns_junk' })).error).toMatchObject({
      code: -32603,
    });
    expect((await peer.request('tools/call', { name: 'bigint' })).error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('not valid JSON'),
    });
    expect(await peer.call('ping')).toEqual({});
  });
});

describe('tool registry', () => {
  it('refuses duplicates and bad schemas with local errors', () => {
    const s = server();
    const dup = (() => {
      try {
        s.addTool({ name: 'square' }, () => ({ content: [] }));
      } catch (error) {
        return error;
      }
    })();
    expect(dup).toBeInstanceOf(LocalError);
    expect((dup as LocalError).code).toBe('DUPLICATE_TOOL');
    expect(() =>
      s.addTool({ name: 'bad', inputSchema: { type: 'nonsense' } }, () => ({ content: [] })),
    ).toThrow(expect.objectContaining({ code: 'INVALID_SCHEMA' }));
    expect(() => s.addTool({ name: '' }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => s.addTool({ name: 'nofn' }, undefined as never)).toThrow(/function/);
  });

  it('remove() and update() change what is listed and called', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    const reg = s.addTool({ name: 'v', description: 'one' }, () => ({ content: [text('1')] }));
    const { peer } = await initializedPeer(s);
    reg.update({ description: 'two' }, () => ({ content: [text('2')] }));
    expect(((await peer.call('tools/list')).tools as { description: string }[])[0]?.description).toBe('two');
    expect((await peer.call('tools/call', { name: 'v' })).content).toEqual([{ type: 'text', text: '2' }]);
    expect(() => reg.update({ name: 'renamed' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    reg.remove();
    expect(await peer.call('tools/list')).toEqual({ tools: [] });
    expect(() => s.addTool({ name: 'v' }, () => ({ content: [] }))).not.toThrow();
  });

  it('emits one tools/list_changed per tick for changes after start', async () => {
    const s = new McpServer({ name: 't', version: '1' });
    const { peer } = await initializedPeer(s);
    s.addTool({ name: 'a' }, () => ({ content: [] }));
    s.addTool({ name: 'b' }, () => ({ content: [] }));
    await peer.waitForNotification('notifications/tools/list_changed');
    await peer.call('ping');
    expect(peer.notifications.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });

  it('emits nothing when listChanged is off, and the explicit wrapper refuses', async () => {
    const s = new McpServer({ name: 't', version: '1' }, { capabilities: { listChanged: false } });
    const { peer } = await initializedPeer(s);
    s.addTool({ name: 'a' }, () => ({ content: [] }));
    await peer.call('ping');
    expect(peer.notifications).toHaveLength(0);
    expect(() => s.notifyToolsChanged()).toThrow(
      expect.objectContaining({ code: 'CAPABILITY_NOT_DECLARED' }),
    );
  });
});
