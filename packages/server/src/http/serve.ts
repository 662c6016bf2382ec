/** A ready-made node:http listener around the MCP handler, with safe limits by default. */

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ConnectableServer,
  createMcpHttpHandler,
  type HttpCloseOptions,
  type McpHttpHandler,
} from './handler.js';
import { count, DEFAULT_MAX_CONNECTIONS_PER_CLIENT, type McpHttpHandlerOptions } from './options.js';
import { ConnectionsInUse } from './sessions/client-limits.js';

export interface ServeHttpOptions extends McpHttpHandlerOptions {
  /** Address to bind. Default `127.0.0.1`; anything else should come with `allowedHosts` and `auth`. */
  readonly host?: string;
  /** Port to bind; 0 picks a free one. Default 0. */
  readonly port?: number;
  /** Largest request head in bytes (431 beyond). Default 16 KiB. */
  readonly maxHeaderSize?: number;
  /** Time allowed to receive a request's headers (ms). Default 10 s. */
  readonly headersTimeout?: number;
  /** Time allowed to receive a whole request (ms); responses, such as SSE streams, are not limited. Default 30 s. */
  readonly requestTimeout?: number;
  /** How long an idle keep-alive connection stays open (ms). Default 5 s. */
  readonly keepAliveTimeout?: number;
  /** Connections accepted at once; further ones are dropped on arrival. Default 1,024. */
  readonly maxConnections?: number;
  /**
   * New connections accepted per second (a token bucket holding one second's worth); connections
   * arriving faster are dropped on arrival. Default 1,000; 0 turns the limit off.
   */
  readonly maxConnectionsPerSecond?: number;
  /**
   * Connections one client address may hold in use at once (a request in progress, or its response
   * still open, such as an SSE stream); a request that would take one more is answered 429 and its
   * connection closed. Idle keep-alive connections are not counted (they close after
   * `keepAliveTimeout`), nor are connections from `trustedProxies` (their clients are told apart per
   * request). Default 256; 0 turns the limit off.
   */
  readonly maxConnectionsPerClient?: number;
  /**
   * Path of the readiness check for load balancers: `GET` answers 200 `{"status":"ready"}`, and 503
   * `{"status":"draining"}` once `close` began a drain (no auth, no Host check; it says nothing else).
   * Default `/healthz`; `false` turns it off.
   */
  readonly healthPath?: string | false;
}

export interface HttpServerHandle {
  /** The endpoint URL, for example `http://127.0.0.1:53124/mcp`. */
  readonly url: string;
  readonly server: Server;
  readonly handler: McpHttpHandler;
  /**
   * Stop: with `graceMs`, drain first (the health check fails, new work is refused with 503, the work in
   * flight may finish; see `McpHttpHandler.close`); then close every session and connection and stop
   * listening.
   */
  close(options?: HttpCloseOptions): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** How long a stopping listener lets connections finish their requests before it closes them anyway. */
const FLUSH_MS = 5000;

export async function serveHttp(
  mcp: ConnectableServer,
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = count(options.port, 0, 'port');
  const handler = createMcpHttpHandler(mcp, {
    ...options,
    dnsRebindingProtection: options.dnsRebindingProtection ?? LOOPBACK_HOSTS.has(host),
  });
  const healthPath = options.healthPath ?? '/healthz';
  if (healthPath !== false && !healthPath.startsWith('/'))
    throw new TypeError(`http: healthPath must start with "/", got ${JSON.stringify(healthPath)}`);
  const headersTimeout = count(options.headersTimeout, 10_000, 'headersTimeout');
  const checkEvery = Math.min(1_000, Math.max(100, Math.floor(headersTimeout / 4)));
  const server = createServer(
    {
      maxHeaderSize: count(options.maxHeaderSize, 16 * 1024, 'maxHeaderSize'),
      headersTimeout,
      requestTimeout: Math.max(count(options.requestTimeout, 30_000, 'requestTimeout'), headersTimeout),
      keepAliveTimeout: count(options.keepAliveTimeout, 5_000, 'keepAliveTimeout'),
      connectionsCheckingInterval: checkEvery,
    },
    (req, res) => {
      if (req.socket.timeout !== undefined && req.socket.timeout > 0) req.socket.setTimeout(0);
      if (healthPath !== false && req.url === healthPath) return health(res, handler.draining);
      if (inUse.admit(req, res)) handler(req, res);
    },
  );
  // A connection that never starts a request is closed soon after headersTimeout too (node:http
  // only times out requests that have begun, with a 408). Once a request starts, this is cleared.
  const silentTimeout = headersTimeout + 2 * checkEvery;
  const perSecond = count(options.maxConnectionsPerSecond, 1000, 'maxConnectionsPerSecond');
  const inUse = new ConnectionsInUse(
    count(options.maxConnectionsPerClient, DEFAULT_MAX_CONNECTIONS_PER_CLIENT, 'maxConnectionsPerClient'),
    options.trustedProxies ?? [],
  );
  let tokens = perSecond;
  let refilled = Date.now();
  server.on('connection', (socket) => {
    if (perSecond > 0) {
      const now = Date.now();
      tokens = Math.min(perSecond, tokens + ((now - refilled) * perSecond) / 1000);
      refilled = now;
      if (tokens < 1) {
        socket.destroy();
        return;
      }
      tokens--;
    }
    socket.setTimeout(silentTimeout);
  });
  server.maxConnections = count(options.maxConnections, 1024, 'maxConnections');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}${options.path ?? '/mcp'}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    handler,
    close(closeOptions) {
      closing ??= (async () => {
        await handler.close(closeOptions);
        // Every response has ended by now. A connection is closed once idle, never under a request (a proxy
        // that sent one would have nothing to retry and cut its client off); those left after FLUSH_MS are.
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const idle = setInterval(() => server.closeIdleConnections(), 100);
        const force = setTimeout(() => server.closeAllConnections(), FLUSH_MS);
        await stopped;
        clearInterval(idle);
        clearTimeout(force);
      })();
      return closing;
    },
  };
}

/** The readiness answer: ready until a drain began. */
function health(res: ServerResponse, draining: boolean): void {
  const body = draining ? '{"status":"draining"}' : '{"status":"ready"}';
  res.writeHead(draining ? 503 : 200, {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'cache-control': 'no-store',
  });
  res.end(body);
}
