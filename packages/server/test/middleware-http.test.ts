/**
 * Middleware seen from the official SDK clients over real Streamable HTTP, in both eras and both HTTP
 * hosts (node:http and the fetch handler): params and results rewritten, a call answered from middleware,
 * errors mapped, next() twice and a throwing middleware refused clearly, and (SDK v1, 2025-11-25) a tool
 * call run as a task whose task result is what the middleware returned.
 */

import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/fetch/index.js';
import { serveHttp } from '../src/http/index.js';
import { McpError, McpServer, type Middleware, text } from '../src/index.js';
import { hostFetch } from './support/fetch-host.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((fn) => fn()));
});

/** A server with a few tools and the middleware under test; `seen` records what the outer layer saw. */
function build(seen: string[]): McpServer {
  const mcp = new McpServer({ name: 'mw-http', version: '1.0.0' }, { tasks: { pollIntervalMs: 50 } });
  mcp.addTool(
    { name: 'greet', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } },
    (args) => ({ content: [text(`hello ${String(args.who)}`)] }),
  );
  mcp.addTool({ name: 'fails' }, () => {
    throw new Error('backend down');
  });
  mcp.addTool({ name: 'job', execution: { taskSupport: 'optional' } }, async () => ({
    content: [text('job done')],
  }));
  const outer: Middleware = async (ctx, next) => {
    if (ctx.method === 'tools/call')
      seen.push(`${ctx.era} ${ctx.tool} session=${ctx.sessionId === undefined ? 'none' : 'yes'}`);
    return next();
  };
  mcp.use(outer);
  mcp.use({ tool: 'greet' }, async (ctx, next) => {
    const who = String(ctx.params.arguments?.who ?? '');
    if (who === 'cached') return { content: [text('from cache')] };
    ctx.params.arguments = { who: who.toUpperCase() };
    const result = await next();
    return { ...result, content: [...result.content, text('(via middleware)')] };
  });
  mcp.use({ tool: 'fails' }, async (_ctx, next) => {
    try {
      return await next();
    } catch (error) {
      throw new McpError(-32050, `mapped: ${(error as Error).message}`);
    }
  });
  mcp.use({ tool: 'job' }, async (_ctx, next) => {
    const result = await next();
    return { ...result, content: [...result.content, text('stamped')] };
  });
  mcp.use({ tool: (name) => name === 'twice' || name === 'broken' }, async function guard(ctx, next) {
    if (ctx.tool === 'broken') throw new Error('guard crashed');
    await next().catch(() => undefined);
    return next();
  });
  return mcp;
}

type Caller = (name: string, args: Record<string, unknown>) => Promise<unknown>;
const texts = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text);

async function host(kind: 'node' | 'fetch', mcp: McpServer): Promise<string> {
  if (kind === 'node') {
    const handle = await serveHttp(mcp, { port: 0 });
    cleanups.push(() => handle.close());
    return handle.url;
  }
  const handler = createFetchHandler(mcp);
  const fetchHost = await hostFetch(handler, '/mcp', () => handler.close());
  cleanups.push(() => fetchHost.close());
  return fetchHost.url;
}

async function v1(url: string): Promise<{ call: Caller; client: ClientV1 }> {
  const client = new ClientV1({ name: 'mw-v1', version: '1.0.0' });
  await client.connect(new HttpV1(new URL(url)));
  cleanups.push(() => client.close());
  return { call: (name, args) => client.callTool({ name, arguments: args }), client };
}

async function v2Modern(url: string): Promise<{ call: Caller }> {
  const client = new ClientV2(
    { name: 'mw-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new HttpV2(new URL(url)));
  cleanups.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return { call: (name, args) => client.callTool({ name, arguments: args }) };
}

const eras = [
  ['2025-11-25 (SDK v1 client)', 'legacy', v1],
  ['2026-07-28 (SDK v2 client, pinned)', 'modern', v2Modern],
] as const;

describe.each(['node', 'fetch'] as const)('middleware over HTTP (%s host)', (kind) => {
  it.each(eras)(
    '%s: rewrites, answers, maps errors and refuses mistakes clearly',
    async (_title, era, connect) => {
      const seen: string[] = [];
      const { call } = await connect(await host(kind, build(seen)));
      expect(texts(await call('greet', { who: 'ada' }))).toEqual(['hello ADA', '(via middleware)']);
      expect(texts(await call('greet', { who: 'cached' }))).toEqual(['from cache']);
      await expect(call('fails', {})).rejects.toMatchObject({
        code: -32050,
        message: expect.stringContaining('mapped: backend down'),
      });
      await expect(call('twice', {})).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining('middleware "guard" called next() twice while serving tools/call'),
      });
      await expect(call('broken', {})).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining('Internal error in tools/call: guard crashed'),
      });
      expect(texts(await call('greet', { who: 'bob' }))).toEqual(['hello BOB', '(via middleware)']);
      const session = era === 'legacy' ? 'yes' : 'none';
      expect(seen[0]).toBe(`${era} greet session=${session}`);
      expect(seen).toHaveLength(6);
    },
    30_000,
  );
});

describe('middleware around a task over HTTP (SDK v1 experimental tasks, 2025-11-25)', () => {
  it('the client gets a task, and its result is what the middleware returned after next()', async () => {
    const seen: string[] = [];
    const { client } = await v1(await host('node', build(seen)));
    const stream = client.experimental.tasks.callToolStream(
      { name: 'job', arguments: {} },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const messages: { type: string; task?: { taskId: string }; result?: unknown }[] = [];
    for await (const message of stream) messages.push(message as (typeof messages)[number]);
    expect(messages[0]?.type).toBe('taskCreated');
    expect(messages.at(-1)?.type).toBe('result');
    expect(texts(messages.at(-1)?.result)).toEqual(['job done', 'stamped']);
    const taskId = messages[0]?.task?.taskId as string;
    const stored = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(texts(stored)).toEqual(['job done', 'stamped']);
  }, 30_000);
});
