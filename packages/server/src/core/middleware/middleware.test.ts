// Tests of request middleware over memory, in both eras: rewriting params and results, answering without the
// method, mapping errors, the order of layers, matching by method and tool, and the mistakes a middleware can make.
import { describe, expect, it } from 'vitest';
import { initializedPeer } from '../../../test/support/in-memory.js';
import { modernPeer } from '../../../test/support/modern.js';
import { text } from '../content.js';
import { ErrorCode, McpError } from '../errors.js';
import type { Era } from '../handler-types.js';
import { McpServer } from '../server.js';
import type { ToolResult } from '../types.js';
import type { Middleware } from './types.js';

const textOf = (result: unknown) => ((result as ToolResult).content[0] as { text: string }).text;

function server(): { mcp: McpServer; ran: string[] } {
  const ran: string[] = [];
  const mcp = new McpServer({ name: 'mw', version: '1' });
  mcp.addTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args) => {
      ran.push(`echo:${args.text}`);
      return { content: [text(String(args.text))] };
    },
  );
  mcp.addTool({ name: 'shout' }, (args) => {
    ran.push('shout');
    return { content: [text(String(args.text).toUpperCase())] };
  });
  mcp.addTool({ name: 'boom' }, () => {
    throw new Error('disk on fire');
  });
  return { mcp, ran };
}

/** A client of `era` calling tools/call (any method) and getting the whole response back. */
async function client(mcp: McpServer, era: Era) {
  if (era === 'legacy') {
    const { peer } = await initializedPeer(mcp);
    return (method: string, params: Record<string, unknown>) => peer.request(method, params);
  }
  const peer = await modernPeer(mcp);
  return (method: string, params: Record<string, unknown>) => peer.modern(method, params);
}

describe.each(['legacy', 'modern'] as const)('middleware in the %s era', (era) => {
  it('rewrites params before next(): the method sees the new arguments and the new tool name', async () => {
    const { mcp, ran } = server();
    mcp.use({ method: 'tools/call' }, async (ctx, next) => {
      if (ctx.tool === 'alias') ctx.params = { ...ctx.params, name: 'shout' };
      const args = ctx.params.arguments ?? {};
      ctx.params.arguments = { ...args, text: `${String(args.text)}!` };
      return next();
    });
    const call = await client(mcp, era);
    expect(textOf((await call('tools/call', { name: 'echo', arguments: { text: 'hi' } })).result)).toBe(
      'hi!',
    );
    expect(textOf((await call('tools/call', { name: 'alias', arguments: { text: 'hi' } })).result)).toBe(
      'HI!',
    );
    expect(ran).toEqual(['echo:hi!', 'shout']);
  });

  it('answers without calling next(): the method never runs', async () => {
    const { mcp, ran } = server();
    mcp.use({ tool: 'echo' }, (ctx) => ({ content: [text(`cached ${String(ctx.params.arguments?.text)}`)] }));
    const call = await client(mcp, era);
    const answer = await call('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(textOf(answer.result)).toBe('cached x');
    expect(ran).toEqual([]);
  });

  it('rewrites or replaces the result after next()', async () => {
    const { mcp } = server();
    mcp.use({ method: 'tools/call' }, async (_ctx, next) => {
      const result = await next();
      return { ...result, content: [...result.content, text('signed')] };
    });
    mcp.use({ method: 'tools/list' }, async (_ctx, next) => {
      const listed = await next();
      return { ...listed, tools: listed.tools.filter((t) => t.name !== 'boom') };
    });
    const call = await client(mcp, era);
    const answer = (await call('tools/call', { name: 'echo', arguments: { text: 'a' } }))
      .result as ToolResult;
    expect(answer.content.map((c) => (c as { text: string }).text)).toEqual(['a', 'signed']);
    const listed = (await call('tools/list', {})).result as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(['echo', 'shout']);
  });

  it('maps a thrown error to another error or to a tool error result', async () => {
    const { mcp } = server();
    mcp.use({ tool: 'boom' }, async (ctx, next) => {
      try {
        return await next();
      } catch (error) {
        if (ctx.params.arguments?.soft === true)
          return { content: [text(`failed: ${(error as Error).message}`)], isError: true };
        throw new McpError(-32050, 'storage unavailable, try later', { retry: true });
      }
    });
    const call = await client(mcp, era);
    expect((await call('tools/call', { name: 'boom', arguments: {} })).error).toEqual({
      code: -32050,
      message: 'storage unavailable, try later',
      data: { retry: true },
    });
    const soft = (await call('tools/call', { name: 'boom', arguments: { soft: true } })).result;
    expect(soft).toMatchObject({ isError: true, content: [{ text: 'failed: disk on fire' }] });
  });

  it('runs layers in the order added on the way in and in reverse on the way out, hooks among them', async () => {
    const { mcp } = server();
    const trail: string[] = [];
    const layer =
      (name: string): Middleware =>
      async (ctx, next) => {
        if (ctx.method !== 'tools/call') return next();
        trail.push(`${name} in`);
        const result = await next();
        trail.push(`${name} out`);
        return result;
      };
    mcp.use(layer('a'));
    mcp.addHook({ before: (req) => void (req.method === 'tools/call' && trail.push('hook')) });
    mcp.use(layer('b'));
    const removeC = mcp.use(layer('c'));
    const call = await client(mcp, era);
    await call('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(trail).toEqual(['a in', 'hook', 'b in', 'c in', 'c out', 'b out', 'a out']);
    trail.length = 0;
    removeC();
    await call('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(trail).toEqual(['a in', 'hook', 'b in', 'b out', 'a out']);
  });

  it('matches by method, by several methods, by tool name, by names and by a test of the name', async () => {
    const { mcp } = server();
    const seen: string[] = [];
    const mark =
      (tag: string): Middleware =>
      (ctx, next) => {
        seen.push(`${tag}:${ctx.method}${ctx.tool === undefined ? '' : `:${ctx.tool}`}`);
        return next();
      };
    mcp.use({ method: 'tools/list' }, mark('list'));
    mcp.use({ method: ['ping', 'tools/list'] }, mark('both'));
    mcp.use({ tool: 'echo' }, mark('echo'));
    mcp.use({ tool: ['shout', 'boom'] }, mark('names'));
    mcp.use({ tool: (name, ctx) => name.startsWith('s') && ctx.method === 'tools/call' }, mark('test'));
    const call = await client(mcp, era);
    await call('tools/list', {});
    await call('tools/call', { name: 'echo', arguments: { text: 'x' } });
    await call('tools/call', { name: 'shout', arguments: { text: 'x' } });
    await call('prompts/list', {});
    expect(seen).toEqual([
      'list:tools/list',
      'both:tools/list',
      'echo:tools/call:echo',
      'names:tools/call:shout',
      'test:tools/call:shout',
    ]);
  });

  it('refuses a second next() with a message naming the middleware, and the first result still counts', async () => {
    const { mcp, ran } = server();
    let second: unknown;
    mcp.use({ tool: 'echo' }, async function twice(_ctx, next) {
      const result = await next();
      second = await next().catch((error: Error) => error.message);
      return result;
    });
    mcp.use({ tool: 'shout' }, async (_ctx, next) => {
      await next();
      return next();
    });
    const call = await client(mcp, era);
    expect(textOf((await call('tools/call', { name: 'echo', arguments: { text: 'x' } })).result)).toBe('x');
    expect(second).toBe(
      'middleware "twice" called next() twice while serving tools/call; call it once, or not at all to answer by itself',
    );
    const refused = await call('tools/call', { name: 'shout', arguments: { text: 'x' } });
    expect(refused.error).toMatchObject({ code: ErrorCode.InternalError });
    expect((refused.error as { message: string }).message).toContain('called next() twice');
    expect(ran).toEqual(['echo:x', 'shout']);
  });

  it('turns a middleware that throws into a clear -32603 for that call only', async () => {
    const { mcp } = server();
    mcp.use({ tool: 'shout' }, async function audit() {
      throw new TypeError('audit log is full');
    });
    // Forgets to return what next() resolved to (a mistake the types catch, made from JavaScript).
    const forgetful = async (_ctx: unknown, next: () => Promise<unknown>) => {
      await next().catch(() => undefined);
    };
    mcp.use({ tool: 'boom' }, forgetful as unknown as Middleware<'tools/call'>);
    const call = await client(mcp, era);
    const [failed, fine, forgot] = await Promise.all([
      call('tools/call', { name: 'shout', arguments: { text: 'x' } }),
      call('tools/call', { name: 'echo', arguments: { text: 'still here' } }),
      call('tools/call', { name: 'boom', arguments: {} }),
    ]);
    expect(failed.error).toMatchObject({
      code: ErrorCode.InternalError,
      message: 'Internal error in tools/call: audit log is full',
    });
    expect(textOf(fine.result)).toBe('still here');
    expect((forgot.error as { message: string }).message).toBe(
      'Internal error in tools/call: middleware "forgetful" answered tools/call with undefined instead of a result object (return what next() resolved to, or a result of your own)',
    );
  });

  it('gives the context the era, request id, round, abort signal, session and a state for inner layers', async () => {
    const { mcp } = server();
    let seen: Record<string, unknown> = {};
    mcp.use(async (ctx, next) => {
      ctx.state.startedBy = 'outer';
      return next();
    });
    mcp.use({ tool: 'echo' }, async (ctx, next) => {
      seen = {
        era: ctx.era,
        id: ctx.requestId,
        round: ctx.round,
        aborted: ctx.signal.aborted,
        session: ctx.sessionId,
        auth: ctx.auth,
        state: ctx.state.startedBy,
        version: ctx.protocolVersion,
      };
      return next();
    });
    const call = await client(mcp, era);
    await call('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(seen).toMatchObject({ era, round: 1, aborted: false, state: 'outer', auth: undefined });
    expect(seen.id).toEqual(expect.anything());
    expect(seen.version).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
  });
});

describe('server.use', () => {
  it('types the context and the result by method and tool (checked by the typecheck)', () => {
    const { mcp } = server();
    mcp.use({ tool: 'echo' }, async (ctx, next) => {
      const name: string = ctx.tool;
      const args: Record<string, unknown> | undefined = ctx.params.arguments;
      const result = await next();
      const blocks: unknown[] = result.content;
      return name && args && blocks ? result : result;
    });
    mcp.use({ method: 'resources/read' }, async (ctx, next) => {
      const uri: string = ctx.params.uri;
      return uri === '' ? { contents: [] } : next();
    });
    // @ts-expect-error a middleware answers with a result object
    mcp.use({ tool: 'echo' }, async () => 42);
    // @ts-expect-error a tools/call result has content, not contents
    mcp.use({ method: 'tools/call' }, async () => ({ contents: [] }));
    // @ts-expect-error ctx.tool may be undefined outside tools/call
    mcp.use({ method: 'prompts/get' }, (ctx, next) => (ctx.tool.length > 0 ? next() : next()));
    expect(typeof mcp.use).toBe('function');
  });

  it('refuses what is not a middleware or a match with a message naming the mistake', () => {
    const { mcp } = server();
    const pass: Middleware = (_ctx, next) => next();
    expect(() => mcp.use(42 as never)).toThrow('server.use needs a middleware function, got 42');
    expect(() => mcp.use({ methods: 'x' } as never, pass)).toThrow('unknown match key "methods"');
    expect(() => mcp.use({ method: [] }, (_c, n) => n())).toThrow('match.method must be a name');
    expect(() => mcp.use({ method: 'ping', tool: 'echo' } as never, pass)).toThrow(
      'match.tool applies to tools/call only',
    );
  });
});
