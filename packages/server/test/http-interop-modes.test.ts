/**
 * JSON-response and stateless modes with the official SDK clients (v1 and v2), and proof that
 * neither mode keeps anything per request once it is answered.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fixture, startFixture } from './support/http-interop-fixture.js';

const firstText = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;
const open: { close(): Promise<void> }[] = [];

async function connect(
  options: Parameters<typeof startFixture>[0],
): Promise<{ fx: Fixture; client: Client }> {
  const fx = await startFixture(options);
  const client = new Client({ name: 'modes', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(fx.url)));
  open.push(client, fx);
  return { fx, client };
}

afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** Listeners on the server's sockets and sessions: must not grow with the number of requests. */
function liveCounts(fx: Fixture): { sessions: number; listeners: number; mcpSessions: number } {
  let listeners = 0;
  for (const name of fx.server.eventNames()) listeners += fx.server.listenerCount(name);
  return { sessions: fx.handler.sessionCount, listeners, mcpSessions: fx.mcp.sessions.size };
}

describe('no per-request state in stateful modes', () => {
  for (const [mode, options] of [
    ['JSON', { enableJsonResponse: true }],
    ['SSE', {}],
  ] as const) {
    it(`${mode}: 2,000 calls leave sessions, streams, transports and listeners where they were`, async () => {
      const { fx, client } = await connect(options);
      await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
      const before = liveCounts(fx);
      const session = fx.handler.session(
        (client.transport as StreamableHTTPClientTransport).sessionId as string,
      );
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            client.callTool({ name: 'echo', arguments: { text: `r${round}-${i}` } }),
          ),
        );
      }
      expect(liveCounts(fx)).toEqual(before);
      expect(session?.inFlight).toBe(0);
      expect(session?.streamCount).toBeLessThanOrEqual(1);
      expect(fx.mcp.sessions.size).toBe(1);
    });
  }
});

describe('JSON-response mode', () => {
  it('answers with application/json and still reaches the client for elicitation (via the GET stream)', async () => {
    const { fx, client } = await connect({ enableJsonResponse: true });
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'json' } }))).toBe('json');
    expect(firstText(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Lin');
    const raw = await fetch(fx.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(raw.headers.get('content-type')).toBe('application/json');
    expect(raw.headers.get('content-length')).toBeTruthy();
    expect(((await raw.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
      '2025-11-25',
    );
  });
});

describe('stateless mode', () => {
  it('serves every request on a fresh session and keeps none', async () => {
    // 500 calls sent at once by one client (below): up to 500 open streams and connections in use,
    // past the default 256 of each per client, so both limits are turned off here.
    const { fx, client } = await connect({
      stateless: true,
      maxStreamsPerClient: 0,
      maxConnectionsPerClient: 0,
    });
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } }))).toBe(
      'stateless',
    );
    const seen: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: {} }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(firstText(result)).toBe('counted');
    expect(seen).toEqual([1, 2, 3]);
    const before = liveCounts(fx);
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        client.callTool({ name: 'echo', arguments: { text: String(i) } }),
      ),
    );
    await waitFor(() => JSON.stringify(liveCounts(fx)) === JSON.stringify(before), 'every request to let go');
    expect(liveCounts(fx)).toEqual(before);
    expect(fx.handler.sessionCount).toBe(0);
    expect(fx.mcp.sessions.size).toBe(0);
  });

  it('carries nothing from one request to the next (a log level set earlier does not apply)', async () => {
    const { client } = await connect({ stateless: true });
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      levels.push(n.params.level);
    });
    await client.setLoggingLevel('error');
    expect(firstText(await client.callTool({ name: 'chatty', arguments: {} }))).toBe('logged');
    expect(levels).toEqual(['debug', 'info', 'error']);
  });

  it('refuses server-to-client requests at once with a clear error', async () => {
    const { client } = await connect({ stateless: true });
    const started = Date.now();
    await expect(client.callTool({ name: 'ask_name', arguments: {} })).rejects.toThrow(/elicitation/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers GET and DELETE with 405', async () => {
    const { fx } = await connect({ stateless: true });
    expect((await fetch(fx.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    const del = await fetch(fx.url, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('POST');
  });
});

describe('official SDK v2 client (@modelcontextprotocol/client 2.4.0)', () => {
  it('connects over Streamable HTTP and calls tools, stateful and stateless', async () => {
    for (const options of [{}, { stateless: true }, { enableJsonResponse: true }]) {
      const fx = await startFixture(options);
      open.push(fx);
      const client = new ClientV2({ name: 'v2-http', version: '1.0.0' }, { capabilities: {} });
      await client.connect(new TransportV2(new URL(fx.url)));
      open.push(client);
      expect(client.getServerVersion()).toMatchObject({ name: 'http-interop' });
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'v2' } }))).toBe('v2');
    }
  });
});
