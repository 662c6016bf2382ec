/**
 * The first stage every request meets: the path (with the protected-resource metadata beside it),
 * Host and Origin, CORS and its preflight, and the method. Synchronous: a refusal is thrown.
 */

import type { ResolvedHandlerOptions } from '../options.js';
import { refuse } from '../seam/refusal.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import { serveMetadata } from './auth.js';
import { answerPreflight, applyCors } from './cors.js';
import { checkHostAndOrigin } from './guards.js';

export type EndpointMethod = 'POST' | 'GET' | 'DELETE';

/** The method to serve, or undefined when the request was answered here (metadata, preflight). */
export function frontDoor(
  req: HttpRequest,
  res: ResponseSink,
  opts: ResolvedHandlerOptions,
): EndpointMethod | undefined {
  const url = req.url;
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  if (pathname !== opts.path) return elsewhere(req, res, pathname, opts);
  const refusal = checkHostAndOrigin(req, opts);
  if (refusal !== undefined) refuse(refusal);
  if (opts.cors !== undefined) {
    applyCors(req, res, opts.cors);
    if (req.method === 'OPTIONS') {
      answerPreflight(req, res, opts.cors);
      return undefined;
    }
  }
  const method = req.method;
  if (method === 'POST' || (!opts.stateless && (method === 'GET' || method === 'DELETE'))) return method;
  refuse({
    status: 405,
    code: -32000,
    message: 'Method Not Allowed',
    headers: { allow: opts.stateless ? 'POST' : 'GET, POST, DELETE' },
  });
}

/**
 * The paths beside the endpoint: protected-resource metadata when auth is configured, else 404 naming the
 * endpoint's path, and at `/` the fix for a framework that strips its mount path before the handler sees it.
 */
function elsewhere(
  req: HttpRequest,
  res: ResponseSink,
  pathname: string,
  opts: ResolvedHandlerOptions,
): undefined {
  if (opts.auth !== undefined && serveMetadata(req, res, pathname, opts.auth, opts.path)) return undefined;
  const stripped =
    pathname === '/'
      ? `; if a framework mounted this handler and stripped the mount path (Hono's app.mount), give it the option path: '/'`
      : '';
  refuse({ status: 404, code: -32000, message: `Not Found: the MCP endpoint is ${opts.path}${stripped}` });
}
