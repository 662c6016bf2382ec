/**
 * The Streamable HTTP endpoint as a web-standard `(Request) => Promise<Response>` function, for
 * runtimes and frameworks built on fetch (Bun, Deno, Workers, Hono, Next.js route handlers): the
 * fetch adapter over the very same stages as the node:http handler, so both make one set of decisions.
 */

import type { HttpCloseOptions } from '../http/handler.js';
import { type McpHttpHandlerOptions, resolveHandlerOptions } from '../http/options.js';
import { type ConnectableServer, SessionHost } from '../http/sessions/host.js';
import { serveRequest } from '../http/stages/pipeline.js';
import { FetchRequest } from './request.js';
import { FetchSink } from './response.js';

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
  const host = new SessionHost(server, resolveHandlerOptions(options));
  const handler = ((request: Request): Promise<Response> => {
    const sink = new FetchSink();
    const signal = request.signal as AbortSignal | undefined;
    if (signal !== undefined) {
      if (signal.aborted) sink.abort();
      else signal.addEventListener('abort', () => sink.abort(), { once: true });
    }
    serveRequest(host, new FetchRequest(request), sink);
    return sink.response;
  }) as FetchHandler;
  Object.defineProperty(handler, 'sessionCount', { get: () => host.sessions.size });
  Object.defineProperty(handler, 'draining', { get: () => host.drain.draining });
  handler.close = (closeOptions = {}) => host.close(closeOptions.graceMs);
  return handler;
}
