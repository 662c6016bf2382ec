/**
 * The fetch handler on a real socket: its import graph is web-standard, the official v1 client
 * works in stateless JSON mode, and body caps, origin checks and bearer auth answer as on node:http.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerAuth, createFetchHandler, type FetchHandlerOptions } from '../src/fetch/index.js';
import { type FetchHost, hostFetch } from './support/fetch-host.js';
import { callEcho, echoServer, errorOf, INIT_BODY, post, responseOf } from './support/http-helpers.js';
import { importGraph } from './support/import-graph.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const hosts: FetchHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function serveFetch(options?: FetchHandlerOptions): Promise<string> {
  const handler = createFetchHandler(echoServer(), options);
  const host = await hostFetch(handler, options?.path ?? '/mcp', () => handler.close());
  hosts.push(host);
  return host.url;
}

describe('fetch handler', () => {
  it('imports nothing from node: in its whole import graph, and no package but jose and @noble/hashes (the OpenTelemetry API comes through the main entry)', () => {
    const graph = importGraph(join(dist, 'fetch', 'index.js'));
    expect(graph.files.length).toBeGreaterThan(10);
    expect(graph.files.some((file) => file.endsWith(join('http', 'stages', 'pipeline.js')))).toBe(true);
    expect(graph.outside.filter((o) => o.specifier.startsWith('node:'))).toEqual([]);
    const packages = new Set(
      graph.outside.map((o) => o.specifier.replace(/^(@[^/]+\/[^/]+|[^@/][^/]*).*$/, '$1')),
    );
    expect([...packages].sort()).toEqual(['@noble/hashes', 'jose']);
  });

  it('serves the official v1 client statelessly with JSON responses', async () => {
    const url = await serveFetch({ stateless: true, enableJsonResponse: true });
    const client = new Client({ name: 'fetch-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'over fetch' } });
    expect(result.content).toEqual([{ type: 'text', text: 'over fetch' }]);
    await client.close();
    const res = await post(url, callEcho(7, 'json'), { 'mcp-protocol-version': '2025-11-25' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await responseOf(res)).toMatchObject({ id: 7, result: { content: [{ text: 'json' }] } });
  });

  it('refuses a body over maxBodyBytes, declared or streamed, with 413', async () => {
    const url = await serveFetch({ maxBodyBytes: 1000 });
    const big = JSON.stringify({ ...INIT_BODY, pad: 'x'.repeat(2000) });
    const declared = await post(url, big);
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).message).toMatch(/exceeds 1000 bytes/);
    const bytes = new TextEncoder().encode(big);
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 300) controller.enqueue(bytes.slice(at, at + 300));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.headers.get('content-length')).not.toBeNull();
    expect(streamed.status).toBe(413);
    expect((await errorOf(streamed)).message).toMatch(/exceeds 1000 bytes/);
    const bad = await post(url, '{"jsonrpc":');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe(-32700);
  });

  it('checks Origin, method and path like the node handler', async () => {
    const url = await serveFetch({ allowedOrigins: ['https://app.example'] });
    const foreign = await post(url, INIT_BODY, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const allowed = await post(url, INIT_BODY, { origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await allowed.body?.cancel();
    const put = await fetch(url, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    expect((await fetch(url.replace('/mcp', '/other'), { method: 'POST' })).status).toBe(404);
  });

  it('answers bearer auth with 401, WWW-Authenticate and protected-resource metadata', async () => {
    const url = await serveFetch({
      stateless: true,
      auth: bearerAuth({
        tokens: ['fetch-token-0123456789'],
        resourceMetadata: { authorization_servers: ['https://issuer.example'] },
      }),
    });
    const anonymous = await post(url, callEcho(1, 'no'), { 'mcp-protocol-version': '2025-11-25' });
    expect(anonymous.status).toBe(401);
    const challenge = anonymous.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({
      resource: url,
      authorization_servers: ['https://issuer.example'],
    });
    const ok = await post(url, callEcho(2, 'yes'), {
      'mcp-protocol-version': '2025-11-25',
      authorization: 'Bearer fetch-token-0123456789',
    });
    expect(ok.status).toBe(200);
    expect(await responseOf(ok)).toMatchObject({ id: 2, result: { content: [{ text: 'yes' }] } });
  });
});
