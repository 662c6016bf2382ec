// Tests of prompts/list and prompts/get.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../test/support/in-memory.js';
import { text } from './content.js';
import { McpServer } from './server.js';

function server() {
  const s = new McpServer({ name: 'p', version: '1' });
  s.addPrompt(
    {
      name: 'greet',
      title: 'Greet',
      description: 'Say hello',
      arguments: [
        { name: 'who', required: true },
        { name: 'tone', description: 'how' },
      ],
      complete: {
        who: (value, ctx) =>
          ['Ada', 'Alan', 'Grace', ctx.arguments.tone ?? 'none'].filter((n) => n.startsWith(value)),
        tone: async () => Array.from({ length: 150 }, (_, i) => `t${i}`),
      },
    },
    (args) => ({
      description: 'greeting',
      messages: [{ role: 'user', content: text(`Hello ${args.who}${args.tone ? ` (${args.tone})` : ''}`) }],
    }),
  );
  s.addPrompt({ name: 'plain' }, async () => [{ role: 'assistant', content: text('hi') }]);
  s.addResourceTemplate(
    {
      uriTemplate: 'db://{table}',
      name: 'tables',
      complete: { table: (v) => ['users', 'orders'].filter((t) => t.startsWith(v)) },
    },
    (uri) => [{ uri, text: '' }],
  );
  return s;
}

describe('prompts', () => {
  it('lists prompts without local-only fields', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.call('prompts/list')).prompts).toEqual([
      {
        name: 'greet',
        title: 'Greet',
        description: 'Say hello',
        arguments: [
          { name: 'who', required: true },
          { name: 'tone', description: 'how' },
        ],
      },
      { name: 'plain' },
    ]);
  });

  it('gets a prompt with arguments, and accepts a bare messages array', async () => {
    const { peer } = await initializedPeer(server());
    expect(
      await peer.call('prompts/get', { name: 'greet', arguments: { who: 'Ada', tone: 'warm' } }),
    ).toEqual({
      description: 'greeting',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada (warm)' } }],
    });
    expect(await peer.call('prompts/get', { name: 'plain' })).toEqual({
      messages: [{ role: 'assistant', content: { type: 'text', text: 'hi' } }],
    });
  });

  it('refuses a missing required argument, a non-string argument and an unknown prompt (-32602)', async () => {
    const { peer } = await initializedPeer(server());
    expect((await peer.request('prompts/get', { name: 'greet' })).error).toMatchObject({
      code: -32602,
      data: { pointer: '/params/arguments/who' },
    });
    expect((await peer.request('prompts/get', { name: 'greet', arguments: { who: 3 } })).error).toMatchObject(
      {
        code: -32602,
        data: { pointer: '/params/arguments/who' },
      },
    );
    expect((await peer.request('prompts/get', { name: 'nope' })).error).toMatchObject({ code: -32602 });
  });
});

describe('completion/complete', () => {
  it('completes prompt arguments with the filled-in context', async () => {
    const { peer } = await initializedPeer(server());
    const result = await peer.call('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'A' },
      context: { arguments: { tone: 'Aloof' } },
    });
    expect(result).toEqual({ completion: { values: ['Ada', 'Alan', 'Aloof'], total: 3, hasMore: false } });
  });

  it('caps values at 100 and says there are more', async () => {
    const { peer } = await initializedPeer(server());
    const result = await peer.call('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'tone', value: '' },
    });
    const completion = result.completion as { values: string[]; total: number; hasMore: boolean };
    expect(completion.values).toHaveLength(100);
    expect(completion.total).toBe(150);
    expect(completion.hasMore).toBe(true);
  });

  it('completes resource template variables', async () => {
    const { peer } = await initializedPeer(server());
    const result = await peer.call('completion/complete', {
      ref: { type: 'ref/resource', uri: 'db://{table}' },
      argument: { name: 'table', value: 'o' },
    });
    expect(result).toEqual({ completion: { values: ['orders'], total: 1, hasMore: false } });
  });

  it('answers an argument without a completer with no values, and bad refs with -32602', async () => {
    const { peer } = await initializedPeer(server());
    expect(
      await peer.call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'plain' },
        argument: { name: 'x', value: '' },
      }),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    const bad = await peer.request('completion/complete', {
      ref: { type: 'ref/other' },
      argument: { name: 'x', value: '' },
    });
    expect(bad.error).toMatchObject({ code: -32602, data: { pointer: '/params/ref/type' } });
  });

  it('is -32601 when completions are not enabled', async () => {
    const s = new McpServer({ name: 'p', version: '1' });
    s.addPrompt({ name: 'x' }, () => []);
    const { peer } = await initializedPeer(s);
    expect(peer.initializeResult?.capabilities).not.toHaveProperty('completions');
    const answer = await peer.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'x' },
      argument: { name: 'a', value: '' },
    });
    expect(answer.error).toMatchObject({ code: -32601 });
  });
});
