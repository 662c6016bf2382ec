/**
 * A tool result that cannot be written as JSON (a BigInt, a cycle, nesting deeper than the stack) on a
 * legacy (2025-11-25) HTTP session: the official SDK v1 client gets -32603 naming the method, over SSE
 * and in JSON-response mode alike, and the session's transport keeps no stream or route for it.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { startClosedAfterEach } from './support/http-helpers.js';

const serve = startClosedAfterEach();

/** Values JSON.stringify refuses, by name. */
function unwritable(kind: string): unknown {
  if (kind === 'bigint') return 10n ** 30n;
  if (kind === 'cycle') {
    const node: Record<string, unknown> = { name: 'loop' };
    node.self = node;
    return node;
  }
  let deep: unknown = 'bottom';
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  return deep;
}

describe.each([
  ['SSE', false],
  ['JSON', true],
])('legacy HTTP session, %s answers: a result that cannot be serialised', (_mode, json) => {
  it('is answered with -32603 and leaves nothing behind in the transport', async () => {
    const srv = await serve({ enableJsonResponse: json }, (mcp) => {
      mcp.addTool({ name: 'bad', description: 'answers with something that is not JSON' }, (args) => ({
        content: [{ type: 'text', text: 'see _meta' }],
        _meta: { value: unwritable(String(args.kind)) },
      }));
    });
    const client = new Client({ name: 'unserialisable', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(srv.url));
    await client.connect(transport);
    // The client opens its GET stream after initializing: the one stream the session keeps.
    const session = () => srv.handler.session(transport.sessionId as string);
    await waitFor(() => session()?.standaloneConnected === true, 'the client GET stream');
    try {
      for (const kind of ['bigint', 'cycle', 'deep']) {
        const call = client.callTool({ name: 'bad', arguments: { kind } }, undefined, { timeout: 15_000 });
        await expect(call, kind).rejects.toMatchObject({
          code: -32603,
          message: expect.stringMatching(/Internal error in tools\/call: the result is not valid JSON/),
        });
      }
      expect({ inFlight: session()?.inFlight, streams: session()?.streamCount }).toEqual({
        inFlight: 0,
        streams: 1,
      });
      // The session still serves ordinary calls.
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'still here' }]);
    } finally {
      await client.close();
    }
  }, 90_000);
});
