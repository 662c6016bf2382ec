/** The server the HTTP interop tests drive: one tool per feature, served on 127.0.0.1. */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import { type HttpServerHandle, type ServeHttpOptions, serveHttp } from '../../src/http/index.js';
import { McpServer, text } from '../../src/index.js';

export interface Fixture extends HttpServerHandle {
  mcp: McpServer;
  /** Requests whose handler saw its signal abort. */
  cancelled: string[];
  /** Requests of the `wait` tool that have started. */
  waiting: string[];
}

export async function startFixture(options: ServeHttpOptions = {}): Promise<Fixture> {
  const mcp = new McpServer(
    { name: 'http-interop', version: '1.0.0' },
    { capabilities: { subscribe: true } },
  );
  const cancelled: string[] = [];
  const waiting: string[] = [];
  const handle = await serveHttp(mcp, options);

  mcp.addTool(
    {
      name: 'echo',
      description: 'Echoes text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => ({ content: [text(String(args.text))] }),
  );
  mcp.addTool({ name: 'count', description: 'Reports progress 1..3 of 3' }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3, `step ${i}`);
      await holdFor(10); // steps apart in time, as real work is
    }
    return { content: [text('counted')] };
  });
  mcp.addTool({ name: 'wait', description: 'Waits until cancelled' }, (_args, ctx) => {
    waiting.push(String(ctx.requestId));
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        cancelled.push(String(ctx.requestId));
        reject(ctx.signal.reason);
      });
    });
  });
  mcp.addTool({ name: 'chatty', description: 'Logs at three levels' }, (_args, ctx) => {
    ctx.log('debug', 'fine detail');
    ctx.log('info', { step: 'working', password: 'hunter2' });
    ctx.log('error', 'something failed');
    return { content: [text('logged')] };
  });
  mcp.addTool({ name: 'ask_name', description: 'Elicits a name' }, async (_args, ctx) => {
    const answer = await ctx.elicit('What is your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    return { content: [text(`Hello, ${String(answer.content?.name)}`)] };
  });
  mcp.addTool({ name: 'ask_llm', description: 'Samples the client model' }, async (_args, ctx) => {
    const reply = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'What is 2 + 2?' } }],
      maxTokens: 10,
    });
    return { content: [text(`model said ${(reply.content as { text: string }).text}`)] };
  });
  mcp.addTool(
    { name: 'drop_stream', description: 'Closes its own SSE stream mid-call' },
    async (_args, ctx) => {
      ctx.progress(1, 3);
      const closed =
        ctx.sessionId !== undefined &&
        handle.handler.session(ctx.sessionId)?.closeRequestStream(ctx.requestId, 50);
      ctx.progress(2, 3); // while the client is away: replayed when it comes back
      ctx.progress(3, 3);
      return { content: [text(closed ? 'resumed' : 'not closed')] };
    },
  );
  return Object.assign(handle, { mcp, cancelled, waiting });
}
