/** Options of the Streamable HTTP handler and server, with their defaults in one place. */

import type { AuthInfo } from '../core/types.js';
import type { AuthRequest } from './seam/view.js';
import type { EventStore } from './state/event-store.js';
import type { SharedSessionState } from './state/shared-state.js';

// The defaults are set so that no single legitimate client meets them (an SDK client with 200 calls in
// flight on SSE holds 200 streams and 200 connections in use; a benchmark's 64 sessions from one
// address), while one client stays well below the node-wide caps (10,000 sessions, 1,024 connections).
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100;
export const DEFAULT_MAX_STREAMS_PER_CLIENT = 256;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

/** How long (ms) a POST's SSE head waits for the first message by default. */
export const DEFAULT_SSE_HEAD_HOLD_MS = 10;

/** RFC 9728 protected-resource metadata (the fields a client needs; more may be added). */
export interface ProtectedResourceMetadata {
  /** The resource identifier; defaults to the endpoint URL as seen by the client. */
  readonly resource?: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly [field: string]: unknown;
}

export interface HttpAuthOptions {
  /**
   * Check the request's credentials and return what handlers should see as `auth` (for example the
   * verified token's claims). Throw (or reject) to refuse: the reply is 401 with `WWW-Authenticate`;
   * an error with `status: 403` (and optionally `scope`) answers 403 `insufficient_scope` instead.
   */
  authenticate(req: AuthRequest): AuthInfo | Promise<AuthInfo>;
  /** Served at `/.well-known/oauth-protected-resource` (and the same path suffixed with the endpoint). */
  readonly resourceMetadata?: ProtectedResourceMetadata;
}

export interface CorsOptions {
  /** Origins allowed to call from a browser; `'*'` allows any. */
  readonly origins: readonly string[] | '*';
  /** Preflight cache lifetime in seconds. Default 600. */
  readonly maxAge?: number;
}

export interface McpHttpHandlerOptions {
  /** Path of the MCP endpoint. Default `/mcp`. */
  readonly path?: string;
  /** No sessions: every POST gets a fresh transport and nothing is shared between requests. */
  readonly stateless?: boolean;
  /** Answer requests with one `application/json` body instead of an SSE stream. */
  readonly enableJsonResponse?: boolean;
  /**
   * The replay log for `Last-Event-ID` resumption. Default: a bounded in-memory store. `false`
   * turns resumability off (no event ids, no priming events). Ignored in stateless mode.
   */
  readonly eventStore?: EventStore | false;
  /** `retry` in ms sent before the server closes a stream to make the client poll. Default 1,000. */
  readonly retryMs?: number;
  /**
   * How long (ms) the SSE answer to a POST holds back its head waiting for the first message. An answer
   * ready within it leaves in one write with a Content-Length; after it, the head and the priming event
   * are sent so the client can resume a slow request. Each is flushed 1 to 2 holds after the request
   * was handed over. Default 10; 0 sends the head as soon as the request was handed over.
   */
  readonly sseHeadHoldMs?: number;
  /**
   * Interval (ms) of keep-alive comments on every open SSE stream (legacy GET streams, POST streams
   * that wait, 2026-07-28 streams): they keep proxies from closing quiet streams, and a comment written
   * into a connection whose client is gone makes a proxy close it, so the stream lets it go. 0
   * disables. Default 15,000.
   */
  readonly keepAliveMs?: number;
  /** Largest request body in bytes (413 beyond). Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Sessions allowed at once (503 beyond). Default 10,000. */
  readonly maxSessions?: number;
  /**
   * Legacy sessions one client may hold at once in this process (429 beyond). A client is its
   * principal with auth, else its address. Default 100; 0 turns the limit off.
   */
  readonly maxSessionsPerClient?: number;
  /**
   * Requests whose response is still open (SSE and GET streams, answers being waited for) that one
   * client may hold at once in this process (429 beyond). Default 256; 0 turns the limit off.
   */
  readonly maxStreamsPerClient?: number;
  /**
   * Addresses of proxies (load balancers) whose `X-Forwarded-For` names the client: a request from
   * one of them counts against the address it put last there. Default none.
   */
  readonly trustedProxies?: readonly string[];
  /** A session with no request and no open connection for this long (ms) is closed. Default 30 min; 0 = never. */
  readonly sessionIdleTimeoutMs?: number;
  /** Messages kept for the standalone stream while no GET is connected. Default 1,000. */
  readonly maxStandaloneBacklog?: number;
  /**
   * Allowed `Host` header values (`host` or `host:port`). Default: when DNS-rebinding protection
   * is on, the loopback names `localhost`, `127.0.0.1` and `[::1]` on any port.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Allowed `Origin` header values. Default: loopback origins when protection is on, otherwise
   * only the origin matching the request's own `Host`. Requests without `Origin` are not browsers
   * and pass this check.
   */
  readonly allowedOrigins?: readonly string[];
  /** Check `Host` against `allowedHosts`. Default true (the listener binds to loopback by default). */
  readonly dnsRebindingProtection?: boolean;
  /** Bearer-token hook and RFC 9728 metadata. Default none. */
  readonly auth?: HttpAuthOptions;
  /** CORS for browser clients. Default off. */
  readonly cors?: CorsOptions;
  /** Called with errors that have no request to answer (never with client mistakes). */
  readonly onError?: (error: Error) => void;
  /**
   * Serve sessions together with other processes (behind a load balancer): the registry and router
   * they all share. Default none: sessions live in this process only. Ignored in stateless mode.
   */
  readonly sharedSessions?: SharedSessionState;
}

export interface ResolvedHandlerOptions {
  readonly path: string;
  readonly stateless: boolean;
  readonly jsonResponse: boolean;
  readonly eventStore: EventStore | false | undefined;
  readonly retryMs: number;
  readonly sseHeadHoldMs: number;
  readonly keepAliveMs: number;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly maxStreamsPerClient: number;
  readonly trustedProxies: readonly string[];
  readonly sessionIdleTimeoutMs: number;
  readonly maxStandaloneBacklog: number;
  readonly allowedHosts: readonly string[] | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly dnsRebindingProtection: boolean;
  readonly auth: HttpAuthOptions | undefined;
  readonly cors: CorsOptions | undefined;
  readonly onError: ((error: Error) => void) | undefined;
  readonly sharedSessions: SharedSessionState | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export function resolveHandlerOptions(options: McpHttpHandlerOptions = {}): ResolvedHandlerOptions {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/'))
    throw new TypeError(`http: path must start with "/", got ${JSON.stringify(path)}`);
  if (options.auth !== undefined && typeof options.auth.authenticate !== 'function') {
    throw new TypeError('http: auth.authenticate must be a function');
  }
  return {
    path,
    stateless: options.stateless === true,
    jsonResponse: options.enableJsonResponse === true,
    eventStore: options.eventStore,
    retryMs: count(options.retryMs, 1000, 'retryMs'),
    sseHeadHoldMs: count(options.sseHeadHoldMs, DEFAULT_SSE_HEAD_HOLD_MS, 'sseHeadHoldMs'),
    keepAliveMs: count(options.keepAliveMs, 15_000, 'keepAliveMs'),
    maxBodyBytes: count(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    maxSessions: count(options.maxSessions, 10_000, 'maxSessions'),
    maxSessionsPerClient: count(
      options.maxSessionsPerClient,
      DEFAULT_MAX_SESSIONS_PER_CLIENT,
      'maxSessionsPerClient',
    ),
    maxStreamsPerClient: count(
      options.maxStreamsPerClient,
      DEFAULT_MAX_STREAMS_PER_CLIENT,
      'maxStreamsPerClient',
    ),
    trustedProxies: options.trustedProxies ?? [],
    sessionIdleTimeoutMs: count(options.sessionIdleTimeoutMs, 30 * 60_000, 'sessionIdleTimeoutMs'),
    maxStandaloneBacklog: count(options.maxStandaloneBacklog, 1000, 'maxStandaloneBacklog'),
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    dnsRebindingProtection: options.dnsRebindingProtection ?? true,
    auth: options.auth,
    cors: options.cors,
    onError: options.onError,
    sharedSessions: options.stateless === true ? undefined : options.sharedSessions,
  };
}

/** A non-negative integer option, or its default. */
export function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`http: ${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}
