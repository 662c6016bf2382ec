/**
 * What every request meets before the endpoint serves it: the path (with the protected-resource
 * metadata beside it), Host and Origin, CORS and its preflight, and the method. Each refusal is
 * answered here.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedHandlerOptions } from '../options.js';
import { sendJsonError } from '../seam/reply.js';
import { serveMetadata } from './auth.js';
import { answerPreflight, applyCors } from './cors.js';
import { checkHostAndOrigin } from './guards.js';

/** The method to serve (POST, GET or DELETE), or undefined when the request was answered here. */
export function frontDoor(
  req: IncomingMessage,
  res: ServerResponse,
  opts: ResolvedHandlerOptions,
): string | undefined {
  // Express and Connect keep the URL as it came in `originalUrl` when a mount (`app.use('/mcp', …)`) strips it.
  const original = (req as { originalUrl?: unknown }).originalUrl;
  const url = typeof original === 'string' ? original : (req.url ?? '/');
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  if (pathname !== opts.path) {
    elsewhere(req, res, pathname, opts);
    return undefined;
  }
  const refusal = checkHostAndOrigin(req, opts);
  if (refusal !== undefined) {
    sendJsonError(res, refusal.status, refusal.code, refusal.message);
    return undefined;
  }
  if (opts.cors !== undefined) {
    applyCors(req, res, opts.cors);
    if (req.method === 'OPTIONS') {
      answerPreflight(req, res, opts.cors);
      return undefined;
    }
  }
  const method = req.method ?? '';
  if (method !== 'POST' && (opts.stateless || (method !== 'GET' && method !== 'DELETE'))) {
    sendJsonError(res, 405, -32000, 'Method Not Allowed', {
      allow: opts.stateless ? 'POST' : 'GET, POST, DELETE',
    });
    return undefined;
  }
  return method;
}

/**
 * The paths beside the endpoint: protected-resource metadata when auth is configured, else 404 naming the
 * endpoint's path, and at `/` the fix for a framework that strips its mount path before the handler sees it.
 */
function elsewhere(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  opts: ResolvedHandlerOptions,
): void {
  if (opts.auth !== undefined && serveMetadata(req, res, pathname, opts.auth, opts.path)) return;
  const stripped =
    pathname === '/'
      ? `; if a framework mounted this handler and stripped the mount path (Hono's app.mount), give it the option path: '/'`
      : '';
  sendJsonError(res, 404, -32000, `Not Found: the MCP endpoint is ${opts.path}${stripped}`);
}
