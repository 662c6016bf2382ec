/**
 * One suite every transport passes (in-memory, stdio, Streamable HTTP). Call
 * `runTransportSuite({ name, connect })` from a test file; `connect(server)` binds a fresh client
 * to `server` over the transport under test and returns the client end.
 */

import { holdFor, quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, text } from '../../src/index.js';
import { type ClientHandle, type Message, Peer } from './peer.js';

export interface TransportSuiteOptions {
  name: string;
  connect(server: McpServer): Promise<ClientHandle>;
}

/** The server every suite test talks to. */
export function suiteServer(): McpServer {
  const server = new McpServer({ name: 'suite', version: '1.0.0' }, { maxConcurrency: 8 });
  server.addTool(
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => ({ content: [text(String(args.text))] }),
  );
  server.addTool({ name: 'slow', inputSchema: { type: 'object' } }, async (args, ctx) => {
    const steps = Number(args.steps ?? 3);
    for (let i = 1; i <= steps; i++) {
      await holdFor(5); // steps apart in time, as real work is
      ctx.progress(i, steps, `step ${i}`);
      ctx.log('info', { step: i });
    }
    return { content: [text('slow done')] };
  });
  let aborted = 0;
  let started = 0;
  server.addTool({ name: 'wait_for_cancel' }, (_args, ctx) => {
    started++;
    return new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        aborted++;
        resolve({ content: [text('aborted')] });
      });
    });
  });
  server.addTool({ name: 'aborted_count' }, () => ({ content: [text(String(aborted))] }));
  server.addTool({ name: 'started_count' }, () => ({ content: [text(String(started))] }));
  server.addTool({ name: 'ask' }, async (_args, ctx) => {
    const answer = await ctx.elicit('Name?', { type: 'object', properties: { name: { type: 'string' } } });
    return { content: [text(`hello ${String(answer.content?.name)}`)] };
  });
  return server;
}

export function runTransportSuite({ name, connect }: TransportSuiteOptions): void {
  describe(`transport suite: ${name}`, () => {
    const open: { peer: Peer; server: McpServer }[] = [];

    async function start(
      capabilities: Record<string, unknown> = {},
    ): Promise<{ peer: Peer; server: McpServer }> {
      const server = suiteServer();
      const peer = new Peer(await connect(server));
      open.push({ peer, server });
      await peer.initialize(capabilities);
      return { peer, server };
    }

    afterEach(async () => {
      for (const { peer, server } of open.splice(0)) {
        await peer.handle.close().catch(() => {});
        await server.close();
      }
    });

    it('initializes and serves a tool call', async () => {
      const { peer } = await start();
      const result = await peer.call('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    });

    it('answers 64 concurrent requests, each with its own id', async () => {
      const { peer } = await start();
      const answers = await Promise.all(
        Array.from({ length: 64 }, (_, i) =>
          peer.request('tools/call', { name: 'echo', arguments: { text: `m${i}` } }),
        ),
      );
      answers.forEach((answer, i) => {
        expect((answer.result as { content: { text: string }[] }).content[0]?.text).toBe(`m${i}`);
      });
    });

    it('carries string ids and unicode text unchanged', async () => {
      const { peer } = await start();
      const payload = 'héllo — 你好 — 🎉 — "quoted" \\ back\nline';
      const answer = await peer.request(
        'tools/call',
        { name: 'echo', arguments: { text: payload } },
        'id-ü-1',
      );
      expect(answer.id).toBe('id-ü-1');
      expect((answer.result as { content: { text: string }[] }).content[0]?.text).toBe(payload);
    });

    it('carries a 1 MiB argument both ways', async () => {
      const { peer } = await start();
      const big = 'x'.repeat(1024 * 1024);
      const result = await peer.call('tools/call', { name: 'echo', arguments: { text: big } });
      expect((result.content as { text: string }[])[0]?.text.length).toBe(big.length);
    });

    it('delivers progress and log notifications before the response', async () => {
      const { peer } = await start();
      const answer = await peer.request('tools/call', {
        name: 'slow',
        arguments: { steps: 3 },
        _meta: { progressToken: 'tok' },
      });
      const index = peer.received.indexOf(answer);
      const before = peer.received.slice(0, index);
      const progress = before.filter((m) => m.method === 'notifications/progress');
      expect(progress.map((m) => (m.params as { progress: number }).progress)).toEqual([1, 2, 3]);
      expect(progress[0]?.params).toMatchObject({ progressToken: 'tok', total: 3, message: 'step 1' });
      expect(before.filter((m) => m.method === 'notifications/message')).toHaveLength(3);
    });

    it('routes a server-to-client request and its answer (elicitation)', async () => {
      const { peer } = await start({ elicitation: {} });
      peer.onServerRequest = (m: Message) => {
        expect(m.method).toBe('elicitation/create');
        return { action: 'accept', content: { name: 'Ada' } };
      };
      const result = await peer.call('tools/call', { name: 'ask' });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    });

    it('aborts a handler on notifications/cancelled and sends no response', async () => {
      const { peer } = await start();
      const pending = peer.request('tools/call', { name: 'wait_for_cancel' }, 'c1');
      const counted = async (tool: string) =>
        ((await peer.call('tools/call', { name: tool })).content as { text: string }[])[0]?.text;
      await waitFor(async () => (await counted('started_count')) === '1', 'the handler to start');
      await peer.notify('notifications/cancelled', { requestId: 'c1', reason: 'user' });
      // The handler sees the abort, and the connection still serves requests.
      await waitFor(async () => (await counted('aborted_count')) === '1', 'the handler to see the abort');
      const late = await Promise.race([
        pending.then(() => 'answered'),
        quietPeriod(100).then(() => 'silent'),
      ]);
      expect(late).toBe('silent');
    });

    it('answers an unknown method with -32601 and keeps going', async () => {
      const { peer } = await start();
      const answer = await peer.request('no/such/method');
      expect((answer.error as { code: number }).code).toBe(-32601);
      expect(await peer.call('ping')).toEqual({});
    });

    it('answers a frame that is not JSON with -32700 and id null, when the transport takes raw frames', async () => {
      const server = suiteServer();
      const handle = await connect(server);
      const peer = new Peer(handle);
      open.push({ peer, server });
      if (handle.sendRaw === undefined) return;
      await handle.sendRaw('{"jsonrpc":"2.0", nope');
      const error = await peer.waitFor((m) => m.error !== undefined);
      expect(error.id).toBeNull();
      expect((error.error as { code: number }).code).toBe(-32700);
      await peer.initialize();
      expect(await peer.call('ping')).toEqual({});
    });

    it('tells the server when the client goes away', async () => {
      const server = suiteServer();
      const handle = await connect(server);
      const peer = new Peer(handle);
      await peer.initialize();
      expect(server.sessions.size).toBe(1);
      await handle.close();
      await waitFor(() => server.sessions.size === 0, 'the session to end');
      expect(server.sessions.size).toBe(0);
      await server.close();
    });
  });
}
