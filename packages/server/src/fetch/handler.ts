/**
 * The Streamable HTTP endpoint as a web-standard `(Request) => Promise<Response>` function, for
 * runtimes and frameworks built on fetch (Bun, Deno, Workers, Hono, Next.js route handlers). It
 * runs the very same endpoint as the node:http handler, over a view of the Request and a sink that
 * becomes the Response, so both make one set of decisions.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ConnectableServer, createMcpHttpHandler, type HttpCloseOptions } from '../http/handler.js';
import type { McpHttpHandlerOptions } from '../http/options.js';
import { viewOf } from './request.js';
import { ResponseSink } from './response.js';

/**
 * The node:http handler's options, all of which apply. `path` is matched against the Request's
 * URL path (default `/mcp`); an `auth.authenticate` callback receives a request view whose
 * `headers` are lower-cased and whose `request` is the web Request.
 */
export type FetchHandlerOptions = McpHttpHandlerOptions;

export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Sessions currently open (always 0 in stateless mode once requests are answered). */
  readonly sessionCount: number;
  /** Whether a drain began (`close` with `graceMs`): a health check should fail. */
  readonly draining: boolean;
  /** Close every session and stop the idle sweep, after a drain of `graceMs` (see `McpHttpHandler.close`). */
  close(options?: HttpCloseOptions): Promise<void>;
}

export function createFetchHandler(server: ConnectableServer, options?: FetchHandlerOptions): FetchHandler {
  const endpoint = createMcpHttpHandler(server, options);
  const handler = ((request: Request): Promise<Response> => {
    const sink = new ResponseSink();
    const signal = request.signal as AbortSignal | undefined;
    if (signal !== undefined) {
      if (signal.aborted) sink.abort();
      else signal.addEventListener('abort', () => sink.abort(), { once: true });
    }
    endpoint(viewOf(request) as unknown as IncomingMessage, sink as unknown as ServerResponse);
    return sink.response;
  }) as FetchHandler;
  Object.defineProperty(handler, 'sessionCount', { get: () => endpoint.sessionCount });
  Object.defineProperty(handler, 'draining', { get: () => endpoint.draining });
  handler.close = (options) => endpoint.close(options);
  return handler;
}
