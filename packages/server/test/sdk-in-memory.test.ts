// The official SDK clients (v1 1.32.2 and v2 2.4.0) drive an McpServer over the in-memory transport pair.

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createInMemoryTransportPair, McpServer, text } from '../src/index.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

interface Fixture {
  server: McpServer;
  /** How many `wait` calls saw their signal abort. */
  aborted: () => number;
  /** How many `wait` calls are running. */
  waiting: () => number;
}

function fixture(): Fixture {
  const server = new McpServer({ name: 'in-memory', version: '1.0.0' });
  let aborted = 0;
  let waiting = 0;
  server.addTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    ({ text: said }) => ({ content: [text(said)] }),
  );
  server.addTool(
    {
      name: 'steps',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    },
    async ({ n }, ctx) => {
      for (let i = 1; i <= n; i++) {
        await Promise.resolve();
        ctx.progress(i, n, `step ${i}`);
      }
      return { content: [text(`did ${n}`)] };
    },
  );
  server.addTool({ name: 'wait' }, (_args, ctx) => {
    waiting++;
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        waiting--;
        aborted++;
        reject(ctx.signal.reason);
      });
    });
  });
  server.addTool({ name: 'grow' }, () => {
    server.addTool({ name: 'grown' }, () => ({ content: [text('new')] }));
    return { content: [text('grown')] };
  });
  return { server, aborted: () => aborted, waiting: () => waiting };
}

const firstText = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('official SDK v1 client in memory (2025-11-25)', () => {
  async function connect(f: Fixture): Promise<ClientV1> {
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await f.server.connect(serverSide);
    const client = new ClientV1({ name: 'v1-in-memory', version: '1.0.0' });
    await client.connect(clientSide);
    closers.push(() => client.close());
    return client;
  }

  it('initializes, lists, calls, reports progress, sees list changes and cancels', async () => {
    const f = fixture();
    const client = await connect(f);
    expect(client.getServerVersion()).toMatchObject({ name: 'in-memory', version: '1.0.0' });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'grow', 'steps', 'wait']);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi v1' } }))).toBe('hi v1');

    const progress: number[] = [];
    const done = await client.callTool({ name: 'steps', arguments: { n: 5 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(firstText(done)).toBe('did 5');
    expect(progress).toEqual([1, 2, 3, 4, 5]);

    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await client.callTool({ name: 'grow', arguments: {} });
    await waitFor(() => changed > 0, 'notifications/tools/list_changed');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('grown');

    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal });
    await waitFor(() => f.waiting() === 1, 'the wait tool to start');
    controller.abort('user gave up');
    await expect(call).rejects.toThrow();
    await waitFor(() => f.aborted() === 1, 'the handler to see the cancellation');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
  });
});

for (const era of [LEGACY, MODERN]) {
  describe(`official SDK v2 client in memory (${era})`, () => {
    async function connect(f: Fixture): Promise<ClientV2> {
      const [clientSide, serverSide] = createInMemoryTransportPair();
      await f.server.connect(serverSide);
      const client = new ClientV2(
        { name: 'v2-in-memory', version: '1.0.0' },
        { versionNegotiation: era === MODERN ? { mode: { pin: MODERN } } : { mode: 'legacy' } },
      );
      await client.connect(clientSide);
      closers.push(() => client.close());
      return client;
    }

    it('initializes, lists, calls, reports progress, sees list changes and cancels', async () => {
      const f = fixture();
      const client = await connect(f);
      expect(client.getNegotiatedProtocolVersion()).toBe(era);
      expect(client.getServerVersion()).toMatchObject({ name: 'in-memory', version: '1.0.0' });

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'grow', 'steps', 'wait']);
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi v2' } }))).toBe('hi v2');

      const progress: number[] = [];
      const done = await client.callTool(
        { name: 'steps', arguments: { n: 5 } },
        {
          onprogress: (p) => progress.push(p.progress),
        },
      );
      expect(firstText(done)).toBe('did 5');
      expect(progress).toEqual([1, 2, 3, 4, 5]);

      let changed = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        changed++;
      });
      const subscription = era === MODERN ? await client.listen({ toolsListChanged: true }) : undefined;
      await client.callTool({ name: 'grow', arguments: {} });
      await waitFor(() => changed > 0, 'notifications/tools/list_changed');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('grown');
      await subscription?.close();

      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
      await waitFor(() => f.waiting() === 1, 'the wait tool to start');
      controller.abort('user gave up');
      await expect(call).rejects.toThrow();
      await waitFor(() => f.aborted() === 1, 'the handler to see the cancellation');
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    });
  });
}
