/**
 * The endpoint inside Express 5 (behind express.json()), Hono (fetch handler) and Fastify, each a
 * real server driven by the official v1 client: list tools, call one, and get progress over SSE.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../src/index.js';
import { expressHost, type FrameworkHost, fastifyHost, honoHost } from './support/framework-hosts.js';
import { callEcho, echoServer, errorOf, INIT_BODY, post, responseOf } from './support/http-helpers.js';

const hosts: FrameworkHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function server(): McpServer {
  return echoServer((mcp) => {
    mcp.addTool({ name: 'count', inputSchema: { type: 'object' } }, async (_args, ctx) => {
      for (let i = 1; i <= 3; i++) ctx.progress(i, 3);
      return { content: [{ type: 'text', text: 'counted' }] };
    });
  });
}

async function drive(url: string): Promise<void> {
  const client = new Client({ name: 'framework-v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { tools } = await client.listTools(undefined, { timeout: 15_000 });
    expect(tools.map((t) => t.name).sort()).toEqual(['count', 'echo']);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'framed' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'framed' }]);
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(counted.content).toEqual([{ type: 'text', text: 'counted' }]);
    expect(progress).toEqual([1, 2, 3]);
  } finally {
    await client.close();
  }
}

describe('web frameworks', () => {
  it('Express 5 with express.json() in front: the parsed req.body is used', async () => {
    const host = await expressHost(server());
    hosts.push(host);
    await drive(host.url);
  });

  it('Express with a string or Buffer body keeps the size cap and the parse error', async () => {
    const text = await expressHost(server(), { maxBodyBytes: 1000 }, express.text({ type: '*/*' }));
    const raw = await expressHost(server(), { maxBodyBytes: 1000 }, express.raw({ type: '*/*' }));
    hosts.push(text, raw);
    for (const host of [text, raw]) {
      const ok = await post(host.url, INIT_BODY);
      expect(ok.status).toBe(200);
      expect(await responseOf(ok)).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
      const big = await post(host.url, { ...INIT_BODY, pad: 'x'.repeat(2000) });
      expect(big.status).toBe(413);
      expect((await errorOf(big)).message).toMatch(/exceeds 1000 bytes/);
      const bad = await post(host.url, '{"jsonrpc"');
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).code).toBe(-32700);
    }
  });

  it('a body parser that swallowed the stream and left no req.body gets a 400 naming it', async () => {
    const swallow: express.RequestHandler = (req, _res, next) => {
      req.resume();
      req.once('end', () => next());
    };
    const host = await expressHost(server(), {}, swallow);
    hosts.push(host);
    const res = await post(host.url, callEcho(1, 'lost'));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/already read by a body parser/);
  });

  it('Hono on @hono/node-server with the fetch handler', async () => {
    const host = await honoHost(server());
    hosts.push(host);
    await drive(host.url);
  });

  it('Fastify with reply.hijack() and the node handler on the raw request', async () => {
    const host = await fastifyHost(server());
    hosts.push(host);
    await drive(host.url);
  });
});

describe('mounted under a path the framework strips', () => {
  it("Express app.use('/mcp', handler): req.url is '/', the handler reads req.originalUrl", async () => {
    const host = await expressHost(server(), undefined, express.json(), '/mcp');
    hosts.push(host);
    await drive(host.url);
  });

  it("Express app.use('/api', handler) with the default path: 404 naming the endpoint's path", async () => {
    const host = await expressHost(server(), undefined, express.json(), '/api');
    hosts.push(host);
    const res = await post(host.url, INIT_BODY);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe('Not Found: the MCP endpoint is /mcp');
  });

  it('Fastify, the route in a plugin registered with prefix /mcp (the raw URL is whole)', async () => {
    const host = await fastifyHost(server(), '/mcp');
    hosts.push(host);
    await drive(host.url);
  });

  it("Hono app.mount('/mcp', handler): a 404 that says to set path: '/', which then works", async () => {
    const stripped = await honoHost(server(), '/mcp');
    hosts.push(stripped);
    const res = await post(stripped.url, INIT_BODY);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toContain(
      "stripped the mount path (Hono's app.mount), give it the option path: '/'",
    );
    const host = await honoHost(server(), '/mcp', { path: '/' });
    hosts.push(host);
    await drive(host.url);
  });
});
