/**
 * The MCP endpoint mounted in real web frameworks, each listening on a free port of 127.0.0.1:
 * Express 5 behind express.json(), Hono on @hono/node-server (fetch handler), Fastify (node handler
 * on the raw request after reply.hijack()). Each returns the endpoint URL and a close function.
 */

import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createFetchHandler } from '../../src/fetch/index.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../../src/http/index.js';
import type { McpServer } from '../../src/index.js';
import { type FetchHost, hostFetch } from './fetch-host.js';

export type FrameworkHost = FetchHost;

/** Express 5; `parser` is the body parser in front (express.json() unless given). */
export async function expressHost(
  server: McpServer,
  options?: McpHttpHandlerOptions,
  parser: express.RequestHandler = express.json(),
): Promise<FrameworkHost> {
  const mcp = createMcpHttpHandler(server, options);
  const app = express();
  app.use(parser);
  app.all('/mcp', (req, res) => mcp(req, res));
  const listener = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`,
    async close() {
      await mcp.close();
      listener.closeAllConnections();
      await new Promise<void>((done) => listener.close(() => done()));
    },
  };
}

/** Hono served by @hono/node-server, the route calling the fetch handler with `c.req.raw`. */
export function honoHost(server: McpServer): Promise<FrameworkHost> {
  const mcp = createFetchHandler(server);
  const app = new Hono();
  app.all('/mcp', (c) => mcp(c.req.raw));
  return hostFetch(app.fetch, '/mcp', () => mcp.close());
}

/** Fastify: the route hijacks the reply and hands the raw objects, with the parsed body, over. */
export async function fastifyHost(server: McpServer): Promise<FrameworkHost> {
  const mcp = createMcpHttpHandler(server);
  const app = Fastify();
  app.all('/mcp', (request, reply) => {
    reply.hijack();
    Object.assign(request.raw, { body: request.body });
    mcp(request.raw, reply.raw);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`,
    async close() {
      await mcp.close();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
