/** CORS for browser clients (off unless configured). Exposes the headers a client must read. */

import type { CorsOptions } from '../options.js';
import type { ResponseSink } from '../seam/sink.js';
import type { RequestView } from '../seam/view.js';

const EXPOSE = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const ALLOW_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';

/** Add CORS headers for an allowed origin; returns whether the origin is allowed. */
export function applyCors(req: RequestView, res: ResponseSink, cors: CorsOptions): boolean {
  const origin = req.header('origin');
  if (origin === undefined) return false;
  if (cors.origins !== '*' && !cors.origins.includes(origin)) return false;
  res.setHeader('access-control-allow-origin', cors.origins === '*' ? '*' : origin);
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-expose-headers', EXPOSE);
  return true;
}

/** Answer a preflight request. */
export function answerPreflight(req: RequestView, res: ResponseSink, cors: CorsOptions): void {
  if (!applyCors(req, res, cors)) {
    res.writeHead(403, { 'content-length': '0' }).end();
    return;
  }
  res.writeHead(204, {
    'access-control-allow-methods': ALLOW_METHODS,
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': String(cors.maxAge ?? 600),
    'content-length': '0',
  });
  res.end();
}
