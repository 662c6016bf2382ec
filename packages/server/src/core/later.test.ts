// Tests of Later: a result settled once, waited on by one listener or awaited, and answered by the core
// without a promise in between.
import { nextTurn } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { recordingTransport } from '../../test/support/recording-transport.js';
import { ToolError } from './errors.js';
import { Later } from './later.js';
import { McpServer } from './server.js';

describe('Later', () => {
  it('tells its listener once, when it settles, and ignores later settlements', () => {
    const seen: [boolean, unknown][] = [];
    const later = new Later<number>();
    later.listen({ onSettled: (ok, value) => seen.push([ok, value]) });
    expect(seen).toEqual([]);
    later.resolve(1);
    later.resolve(2);
    later.reject(new Error('late'));
    expect(seen).toEqual([[true, 1]]);
    expect(later.done).toBe(true);
  });

  it('tells a listener that comes after it settled at once', () => {
    const later = new Later<string>();
    const error = new Error('no');
    later.reject(error);
    const seen: [boolean, unknown][] = [];
    later.listen({ onSettled: (ok, value) => seen.push([ok, value]) });
    expect(seen).toEqual([[false, error]]);
  });

  it('can be awaited like a promise, beside its listener', async () => {
    const later = new Later<string>();
    const seen: unknown[] = [];
    later.listen({ onSettled: (_ok, value) => seen.push(value) });
    const awaited = (async () => await later)();
    setTimeout(() => later.resolve('answer'), 5);
    await expect(awaited).resolves.toBe('answer');
    expect(seen).toEqual(['answer']);
    const failed = new Later();
    failed.reject(new TypeError('bad'));
    await expect(failed).rejects.toThrow('bad');
  });
});

async function serverWith(handler: (later: Later) => void) {
  const server = new McpServer({ name: 'later', version: '1' });
  const pending: Later[] = [];
  server.addTool(
    { name: 'later', outputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
    () => {
      const later = new Later();
      pending.push(later);
      handler(later);
      return later as never;
    },
  );
  const transport = recordingTransport();
  await server.connect(transport);
  transport.deliver({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  await nextTurn();
  transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
  transport.sent.length = 0;
  const call = (id: number) =>
    transport.deliver({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'later', arguments: {} } });
  return { transport, pending, call };
}

describe('a tool answering through a Later', () => {
  it('is answered in the same turn the Later settles, with no promise in between', async () => {
    const { transport, pending, call } = await serverWith(() => {});
    call(1);
    await nextTurn();
    expect(transport.sent).toEqual([]);
    pending[0]!.resolve({ content: [{ type: 'text', text: 'now' }], structuredContent: { n: 1 } });
    // Synchronously: a promise chain would have answered on a later microtask.
    expect(transport.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'now' }], structuredContent: { n: 1 } },
      },
    ]);
  });

  it('is answered when the Later settled before the handler returned', async () => {
    const { transport, call } = await serverWith((later) =>
      later.resolve({ content: [], structuredContent: { n: 2 } }),
    );
    call(2);
    expect(transport.sent).toMatchObject([{ id: 2, result: { structuredContent: { n: 2 } } }]);
  });

  it('checks its result like any other: the output schema, a ToolError, a thrown error', async () => {
    const { transport, pending, call } = await serverWith(() => {});
    call(3);
    call(4);
    call(5);
    pending[0]!.resolve({ content: [], structuredContent: { n: 'one' } });
    pending[1]!.reject(new ToolError('no such file'));
    pending[2]!.reject(new Error('disk on fire'));
    const byId = new Map(transport.sent.map((m) => [m.id, m]));
    expect(byId.get(3)).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('outputSchema') },
    });
    expect(byId.get(4)).toMatchObject({
      result: { content: [{ type: 'text', text: 'no such file' }], isError: true },
    });
    expect(byId.get(5)).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('tools/call') },
    });
  });
});
