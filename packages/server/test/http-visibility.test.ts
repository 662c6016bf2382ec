/**
 * Per-caller visibility over Streamable HTTP with bearer tokens of different scopes, driven by the
 * official clients: SDK v1 in a 2025-11-25 session, SDK v2 pinned to 2026-07-28. Hidden items are
 * unknown to who may not see them, byte for byte; list_changed follows each session's view, including
 * a refreshed token on the same session.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, serveHttp } from '../src/http/index.js';
import { McpServer, text } from '../src/index.js';
import { envelope } from './support/modern-envelope.js';
import { modernHeaders } from './support/modern-wire.js';

const ADMIN = 'admin-token-0123456789abcdef';
const OPS_READ = 'ops-read-token-0123456789abcdef';
const VIEWER = 'viewer-token-0123456789abcdef';

let mcp: McpServer;
let srv: HttpServerHandle;

beforeAll(async () => {
  mcp = new McpServer({ name: 'visibility-http', version: '1.0.0' });
  mcp.addTool({ name: 'open' }, () => ({ content: [text('open')] }));
  mcp.addTool({ name: 'purge', scopes: ['admin'] }, () => ({ content: [text('purged')] }));
  srv = await serveHttp(mcp, {
    auth: bearerAuth({
      tokens: [
        // Two tokens of one subject: one principal, as a refreshed token is.
        { token: ADMIN, scopes: ['admin'], subject: 'ops' },
        { token: OPS_READ, scopes: ['read'], subject: 'ops' },
        { token: VIEWER, scopes: ['read'], subject: 'viewer' },
      ],
    }),
  });
});

afterAll(async () => {
  await srv?.close();
});

/** An SDK v1 client whose bearer token can change between requests; counts tools list_changed. */
async function v1Client(initial: string) {
  const state = { token: initial, changed: 0 };
  const transport = new StreamableHTTPClientTransport(new URL(srv.url), {
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${state.token}`);
      return fetch(url, { ...init, headers });
    },
  });
  const client = new Client({ name: 'visibility-v1', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    state.changed++;
  });
  await client.connect(transport);
  return { client, state };
}

async function v2Modern(token: string): Promise<ClientV2> {
  const transport = new HttpV2(new URL(srv.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new ClientV2(
    { name: 'visibility-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

const toolNames = async (client: { listTools(): Promise<{ tools: { name: string }[] }> }) =>
  (await client.listTools()).tools.map((t) => t.name);

/** What a failed call threw, its tool name swapped for NAME. */
async function refusal(call: Promise<unknown>, name: string): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: unknown; message?: string } | undefined;
  expect(error, `calling ${name}`).toBeDefined();
  return JSON.stringify({ code: error?.code, message: error?.message?.split(name).join('NAME') });
}

describe('visibility over HTTP with two bearer tokens', () => {
  it('SDK v1, 2025-11-25: each token lists its tools; a hidden tool is refused as an unknown one', async () => {
    const admin = await v1Client(ADMIN);
    const viewer = await v1Client(VIEWER);
    expect(await toolNames(admin.client)).toEqual(['open', 'purge']);
    expect(await toolNames(viewer.client)).toEqual(['open']);
    const hidden = await refusal(viewer.client.callTool({ name: 'purge', arguments: {} }), 'purge');
    const unknown = await refusal(viewer.client.callTool({ name: 'nothing', arguments: {} }), 'nothing');
    expect(hidden).toBe(unknown);
    expect(hidden).toContain('Unknown tool: NAME');
    const done = await admin.client.callTool({ name: 'purge', arguments: {} });
    expect(done.content).toEqual([{ type: 'text', text: 'purged' }]);
    await Promise.all([admin.client.close(), viewer.client.close()]);
  });

  it('SDK v2, 2026-07-28: the same split, and the raw answers are byte-identical', async () => {
    const admin = await v2Modern(ADMIN);
    const viewer = await v2Modern(VIEWER);
    expect(await toolNames(admin)).toEqual(['open', 'purge']);
    expect(await toolNames(viewer)).toEqual(['open']);
    const hidden = await refusal(viewer.callTool({ name: 'purge', arguments: {} }), 'purge');
    const unknown = await refusal(viewer.callTool({ name: 'nothing', arguments: {} }), 'nothing');
    expect(hidden).toBe(unknown);
    await Promise.all([admin.close(), viewer.close()]);

    const raw = async (name: string, token: string) => {
      const body = {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name, arguments: {}, _meta: envelope() },
      };
      const res = await fetch(srv.url, {
        method: 'POST',
        headers: { ...modernHeaders(body), authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.text() };
    };
    const swap = (answer: { status: number; body: string }, name: string) => ({
      ...answer,
      body: answer.body.split(name).join('NAME'),
    });
    const [a, b] = [await raw('purge', VIEWER), await raw('nothing', VIEWER)];
    expect(swap(a, 'purge')).toEqual(swap(b, 'nothing'));
    expect(a.body).toContain('Unknown tool: purge');
    expect((await raw('purge', ADMIN)).body).toContain('"text":"purged"');
  });

  it('list_changed reaches the session that can see a new tool, and a refreshed token of one principal', async () => {
    const ops = await v1Client(OPS_READ);
    const viewer = await v1Client(VIEWER);
    expect(await toolNames(ops.client)).toEqual(['open']);
    // Same subject, new scopes: the session is kept, and its tool list changed.
    ops.state.token = ADMIN;
    await ops.client.ping();
    await waitFor(() => ops.state.changed === 1, 'list_changed after the token changed');
    expect(await toolNames(ops.client)).toEqual(['open', 'purge']);

    const adminOnly = mcp.addTool({ name: 'rotate', scopes: ['admin'] }, () => ({ content: [text('ok')] }));
    await waitFor(() => ops.state.changed === 2, 'list_changed for the admin-only tool');
    const shared = mcp.addTool({ name: 'shared' }, () => ({ content: [text('ok')] }));
    await waitFor(
      () => ops.state.changed === 3 && viewer.state.changed >= 1,
      'list_changed for the shared tool',
    );
    // Events on one stream arrive in order: the viewer got the second change and never the first.
    expect(viewer.state.changed).toBe(1);
    adminOnly.remove();
    shared.remove();
    await Promise.all([ops.client.close(), viewer.client.close()]);
  });
});
