/**
 * The Streamable HTTP endpoint as a plain `(req, res)` function for node:http (or anything that
 * hands over node:http objects, such as express): the node:http adapter over the endpoint's stages.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeRequest } from './adapters/node.js';
import type { McpHttpHandler } from './handler-types.js';
import { type McpHttpHandlerOptions, resolveHandlerOptions } from './options.js';
import { type ConnectableServer, SessionHost } from './sessions/host.js';
import { serveRequest } from './stages/pipeline.js';

export type { ConnectableServer, HttpCloseOptions, McpHttpHandler } from './handler-types.js';

export function createMcpHttpHandler(
  server: ConnectableServer,
  options?: McpHttpHandlerOptions,
): McpHttpHandler {
  const host = new SessionHost(server, resolveHandlerOptions(options));
  const handler = ((req: IncomingMessage, res: ServerResponse): void =>
    serveRequest(host, new NodeRequest(req), res)) as McpHttpHandler;
  Object.defineProperty(handler, 'sessionCount', { get: () => host.sessions.size });
  Object.defineProperty(handler, 'draining', { get: () => host.drain.draining });
  handler.session = (sessionId) => host.sessions.get(sessionId);
  handler.close = (closeOptions = {}) => host.close(closeOptions.graceMs);
  return handler;
}
