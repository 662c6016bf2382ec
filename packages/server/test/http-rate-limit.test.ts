/**
 * Rate limits over real HTTP: a single request over its limit gets 429 with Retry-After (whole seconds,
 * rounded up) and a -32029 body carrying its id, in both eras; a batch answers inside its 200; one caller's
 * bucket (by address, 127.0.0.2 vs 127.0.0.3) leaves another served; the official SDK clients see the 429.
 * Refill runs on the server's injected clock.
 */

import { request } from 'node:http';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpServerHandle } from '../src/http/index.js';
import { serveHttp } from '../src/http/index.js';
import { McpServer, type RateLimitOptions } from '../src/index.js';
import { BOTH, INIT_BODY } from './support/http-helpers.js';
import { envelope, MODERN } from './support/modern-envelope.js';
import { modernHeaders, postModern } from './support/modern-wire.js';

const servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const clock = { now: 1_000_000 };

async function serve(
  rateLimits: RateLimitOptions,
  options: { enableJsonResponse?: boolean } = {},
): Promise<string> {
  const mcp = new McpServer({ name: 'rl', version: '1' }, { rateLimits, clock: () => clock.now });
  mcp.addTool({ name: 'echo' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const handle = await serveHttp(mcp, {
    host: '127.0.0.1',
    port: 0,
    allowedHosts: ['127.0.0.1'],
    ...options,
  });
  servers.push(handle);
  return handle.url;
}

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POST `body` from local address `from`. */
function send(url: string, from: string, body: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', accept: BOTH, host: '127.0.0.1', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function session(url: string, from: string, version = '2025-11-25'): Promise<Record<string, string>> {
  const init = { ...INIT_BODY, params: { ...INIT_BODY.params, protocolVersion: version } };
  const res = await send(url, from, init);
  expect(res.status).toBe(200);
  const headers = {
    'mcp-session-id': String(res.headers['mcp-session-id']),
    'mcp-protocol-version': version,
  };
  await send(url, from, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

const callEcho = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: {} },
});

describe('rate limits over HTTP', () => {
  for (const jsonResponse of [false, true]) {
    it(`a single request over its limit gets 429, Retry-After and its id (${jsonResponse ? 'JSON' : 'SSE'} responses)`, async () => {
      const url = await serve(
        { tools: { echo: { rate: 0.4, burst: 1 } } },
        { enableJsonResponse: jsonResponse },
      );
      const headers = await session(url, '127.0.0.2');
      const first = await send(url, '127.0.0.2', callEcho(1), headers);
      expect(first.status).toBe(200);
      // The core took one token and served it.
      expect(first.body).toContain('"result"');
      const refused = await send(url, '127.0.0.2', callEcho(2), headers);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('3'); // 2500 ms, rounded up
      expect(JSON.parse(refused.body)).toMatchObject({
        id: 2,
        error: {
          code: -32029,
          message: expect.stringMatching(/tool "echo" allows 0.4 a second.*retry in 2500 ms/),
        },
      });
      // Another address has a bucket of its own.
      const other = await session(url, '127.0.0.3');
      expect((await send(url, '127.0.0.3', callEcho(3), other)).status).toBe(200);
      clock.now += 2500;
      expect((await send(url, '127.0.0.2', callEcho(4), headers)).status).toBe(200);
    });
  }

  it('a 2026-07-28 request over its limit gets 429 too', async () => {
    const url = await serve({ methods: { 'tools/call': { rate: 1, burst: 1 } } });
    const body = (id: number) => ({
      ...callEcho(id),
      params: { name: 'echo', arguments: {}, _meta: envelope({}) },
    });
    const first = await postModern(url, body(1), modernHeaders(body(1)));
    expect(first.status).toBe(200);
    const second = await postModern(url, body(2), modernHeaders(body(2)));
    expect(second.status).toBe(429);
    expect(second.message).toMatchObject({ id: 2, error: { code: -32029, data: { retryAfterMs: 1000 } } });
    expect(MODERN).toBe('2026-07-28');
  });

  it('inside a 2025-03-26 batch the refusal is a JSON-RPC error in the 200 answer', async () => {
    const url = await serve({ tools: { echo: { rate: 1, burst: 1 } } }, { enableJsonResponse: true });
    const headers = await session(url, '127.0.0.2', '2025-03-26');
    const res = await send(url, '127.0.0.2', [callEcho(1), callEcho(2)], headers);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries((JSON.parse(res.body) as { id: number }[]).map((m) => [m.id, m]));
    expect(byId[1]).toHaveProperty('result');
    expect(byId[2]).toMatchObject({ error: { code: -32029, data: { retryAfterMs: 1000 } } });
  });

  it('the official SDK v1 client rejects the call with code 429 and the body naming the limit', async () => {
    const url = await serve({ tools: { echo: { rate: 1, burst: 1 } } });
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await client.callTool({ name: 'echo', arguments: {} });
    const error = await client.callTool({ name: 'echo', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    // SDK v1 1.32.2: a StreamableHTTPError whose code is the status; its message carries the body.
    expect(String((error as Error).message)).toMatch(/Rate limit exceeded: tool .*echo.* retry in 1000 ms/);
    expect((error as { code?: unknown }).code).toBe(429);
    // The client goes on: the next call after the refill is served.
    clock.now += 1000;
    expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({
      content: [{ text: 'ok' }],
    });
    await client.close();
  });

  for (const mode of ['legacy', 'auto'] as const) {
    it(`the official SDK v2 client (${mode} negotiation) rejects the call; its error carries the 429 and the body`, async () => {
      const url = await serve({ tools: { echo: { rate: 1, burst: 1 } } });
      const client = new ClientV2({ name: 'sdk2', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(new TransportV2(new URL(url)));
      await client.callTool({ name: 'echo', arguments: {} });
      const error = (await client.callTool({ name: 'echo', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      )) as Error & { code?: unknown; data?: unknown };
      expect(error).toBeInstanceOf(Error);
      // SDK v2 2.4.0: an SdkHttpError (code CLIENT_HTTP_NOT_IMPLEMENTED), data { status, statusText, text }.
      // Neither SDK reads Retry-After or retries: the application decides (data.retryAfterMs is in the body).
      expect(error.name).toBe('SdkHttpError');
      expect(error.data).toMatchObject({ status: 429, text: expect.stringContaining('"retryAfterMs":1000') });
      expect(error.message).toMatch(/Rate limit exceeded: tool .*echo/);
      clock.now += 1000;
      expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({
        content: [{ text: 'ok' }],
      });
      await client.close();
    });
  }
});
