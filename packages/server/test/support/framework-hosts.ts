/**
 * The MCP endpoint mounted in real web frameworks, each listening on a free port of 127.0.0.1:
 * Express 5 behind express.json(), Hono on @hono/node-server (fetch handler), Fastify (node handler
 * on the raw request after reply.hijack()). Each returns the endpoint URL and a close function.
 */

import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Hono } from 'hono';
import { createFetchHandler } from '../../src/fetch/index.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../../src/http/index.js';
import type { McpServer } from '../../src/index.js';
import { type FetchHost, hostFetch } from './fetch-host.js';

export type FrameworkHost = FetchHost;

/**
 * Express 5; `parser` is the body parser in front (express.json() unless given). `mount` puts the handler in
 * `app.use(mount, …)`, which strips the mount path from `req.url`, instead of the route `app.all('/mcp', …)`.
 */
export async function expressHost(
  server: McpServer,
  options?: McpHttpHandlerOptions,
  parser: express.RequestHandler = express.json(),
  mount?: string,
): Promise<FrameworkHost> {
  const mcp = createMcpHttpHandler(server, options);
  const app = express();
  app.use(parser);
  if (mount === undefined) app.all('/mcp', (req, res) => mcp(req, res));
  else app.use(mount, (req, res) => mcp(req, res));
  const listener = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}${mount ?? '/mcp'}`,
    async close() {
      await mcp.close();
      listener.closeAllConnections();
      await new Promise<void>((done) => listener.close(() => done()));
    },
  };
}

/**
 * Hono served by @hono/node-server, the route calling the fetch handler with `c.req.raw`; with `mount`,
 * `app.mount(mount, handler)` instead, which hands the handler the request with the mount path stripped.
 */
export function honoHost(
  server: McpServer,
  mount?: string,
  options?: Parameters<typeof createFetchHandler>[1],
): Promise<FrameworkHost> {
  const mcp = createFetchHandler(server, options);
  const app = new Hono();
  if (mount === undefined) app.all('/mcp', (c) => mcp(c.req.raw));
  else app.mount(mount, mcp);
  return hostFetch(app.fetch, mount ?? '/mcp', () => mcp.close());
}

/**
 * Fastify: the route hijacks the reply and hands the raw objects, with the parsed body, over. With `prefix`,
 * the route is `/` in a plugin registered under that prefix (the raw request keeps its whole URL).
 */
export async function fastifyHost(server: McpServer, prefix?: string): Promise<FrameworkHost> {
  const mcp = createMcpHttpHandler(server, prefix === undefined ? undefined : { path: prefix });
  const app = Fastify();
  const route = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    Object.assign(request.raw, { body: request.body });
    mcp(request.raw, reply.raw);
  };
  if (prefix === undefined) app.all('/mcp', route);
  else await app.register(async (sub) => void sub.all('/', route), { prefix });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${prefix ?? '/mcp'}`,
    async close() {
      await mcp.close();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
