/** Middleware over the stdio transport (real streams and framing, in process), in both eras. */

import { describe, expect, it } from 'vitest';
import { McpServer, text } from '../src/index.js';
import { ModernPeer } from './support/modern.js';
import { Peer } from './support/peer.js';
import { connectStdioStreams } from './support/stdio-streams.js';

function server(): McpServer {
  const mcp = new McpServer({ name: 'mw-stdio', version: '1' });
  mcp.addTool({ name: 'echo' }, (args) => ({ content: [text(String(args.text))] }));
  mcp.use({ tool: 'echo' }, async (ctx, next) => {
    if (ctx.params.arguments?.text === 'ping') return { content: [text(`pong (${ctx.era})`)] };
    ctx.params.arguments = { text: `${String(ctx.params.arguments?.text)} via ${ctx.era}` };
    return next();
  });
  return mcp;
}

describe('middleware over stdio', () => {
  it('rewrites params and answers by itself in 2025-11-25 and 2026-07-28', async () => {
    const legacy = new Peer((await connectStdioStreams(server())).handle);
    await legacy.initialize();
    expect(await legacy.call('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi via legacy' }],
    });
    expect(await legacy.call('tools/call', { name: 'echo', arguments: { text: 'ping' } })).toEqual({
      content: [{ type: 'text', text: 'pong (legacy)' }],
    });
    const modern = new ModernPeer((await connectStdioStreams(server())).handle);
    const answer = await modern.modern('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ text: 'hi via modern' }] });
    const pong = await modern.modern('tools/call', { name: 'echo', arguments: { text: 'ping' } });
    expect(pong.result).toMatchObject({ content: [{ text: 'pong (modern)' }] });
  });
});
