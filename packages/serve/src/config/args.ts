// Parses the `entropic-mcp serve` command line into ServeArgs.

import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import { readSandboxFlag } from './sandbox.js';
import type { ClientLimitsConfig } from './types.js';

export type ServeTransport =
  | { readonly kind: 'stdio' }
  | { readonly kind: 'http'; host: string; port: number };

/** `--auth-*`: bearer auth for HTTP (a JWKS with issuer and audience, and/or a token file). */
export interface ServeAuthArgs {
  readonly jwksUrl?: string;
  readonly issuer?: string;
  readonly audience?: string;
  /** Absolute. */
  readonly tokenFile?: string;
}

/** The command line of `entropic-mcp serve`, checked, with paths made absolute. */
export interface ServeArgs {
  readonly configFile?: string;
  /** `--plugin` paths, absolute (relative ones are resolved against the current directory). */
  readonly plugins: readonly string[];
  readonly transport: ServeTransport;
  readonly root?: string;
  readonly isolation?: Isolation;
  readonly timeoutMs?: number;
  /** Plugin calls in flight at once across all plugins (`--concurrency`). */
  readonly concurrency?: number;
  /** `--tools-module` files (absolute): JavaScript modules that register tools beside the plugins. */
  readonly toolsModules: readonly string[];
  /** Instances per plugin for entries that do not set `instances` (`--instances`, default 1). */
  readonly instances?: number;
  /** Bearer auth for --http; absent when no --auth-* option was given. */
  readonly auth?: ServeAuthArgs;
  readonly keepGoing: boolean;
  readonly help: boolean;
  /** `--redis URL`: shared state for several processes behind one load balancer (HTTP only). */
  readonly redis?: string;
  /** `--redis-timeout MS`: the deadline of every wait on Redis. */
  readonly redisTimeoutMs?: number;
  /** `--sse-keep-alive MS`: the interval of keep-alive comments on open SSE streams. */
  readonly sseKeepAliveMs?: number;
  /** `--drain-timeout MS`: on SIGTERM/SIGINT, how long calls and tasks in flight may finish. */
  readonly drainTimeoutMs?: number;
  /** `--workers N`: processes on this machine sharing the port (more than 1 needs Redis). */
  readonly workers?: number;
  /** `--metrics HOST:PORT`: Prometheus text at http://HOST:PORT/metrics. */
  readonly metrics?: { readonly host: string; readonly port: number };
  /** `--log-format`: serve's own log lines as text (default) or JSON. */
  readonly logFormat?: 'text' | 'json';
  /** `--max-sessions-per-client`, `--max-streams-per-client`, `--max-connections-per-client`, `--trusted-proxy`. */
  readonly limits: ClientLimitsConfig;
  /** `--context-header NAME`: request headers a plugin with the plugin context may read. */
  readonly contextHeaders: readonly string[];
  /** `--context-header-allow-credentials`: context headers may carry credentials (authorization, cookies). */
  readonly contextHeadersAllowCredentials: boolean;
  /** `--plugin-log-limit N`: log messages one plugin call may send a second (0: no limit). */
  readonly pluginLogLimit?: number;
  /** `--sandbox SPEC`: the OS sandbox of every plugin whose entry sets none. */
  readonly sandbox?: SandboxOptions;
  /** `--sandbox-audit`: every plugin's sandbox logs what it would refuse instead of refusing it. */
  readonly sandboxAudit?: boolean;
}

/** A bad command line; the message says which option and why. */
export class UsageError extends Error {
  readonly code = 'ENTROPIC_MCP_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const SERVE_USAGE = `usage: entropic-mcp serve [--config FILE] [--plugin PATH]... [--stdio | --http [HOST:]PORT]
                          [--root DIR] [--isolation process|none] [--timeout MS] [--concurrency N]
                          [--instances N] [--tools-module FILE]... [--keep-going]
                          [--auth-jwks URL --auth-issuer ISS --auth-audience AUD] [--auth-token-file FILE]
                          [--redis redis://HOST:PORT] [--redis-timeout MS] [--workers N]
                          [--metrics [HOST:]PORT] [--log-format text|json] [--max-sessions-per-client N]
                          [--max-streams-per-client N] [--max-connections-per-client N] [--trusted-proxy ADDR]...
                          [--sse-keep-alive MS] [--drain-timeout MS] [--context-header NAME]...
                          [--context-header-allow-credentials]
                          [--plugin-log-limit N] [--sandbox SPEC] [--sandbox-audit]

  --config FILE       YAML config; plugins under mcp: plugins: (paths relative to the file)
  --plugin PATH       a plugin .so to serve (repeatable; added after the config's plugins)
  --stdio             serve on stdin/stdout (the default)
  --http [HOST:]PORT  serve Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; PORT 0 picks one)
  --root DIR          working directory handed to every plugin (default: the current directory)
  --isolation MODE    process (default: each plugin in its own host process) or none (in-process)
  --timeout MS        per-call time limit for every plugin (a config entry's timeout_ms wins)
  --concurrency N     plugin calls in flight at once across all plugins (default 64; each plugin
                      instance still runs its own calls one at a time)
  --tools-module FILE a JavaScript module whose register(server, { root }) adds tools, resources or
                      prompts beside the plugins' (repeatable)
  --instances N       instances of each plugin (default 1; a config entry's instances wins): N host processes
                      (or threads in-process), calls go to the least busy; instances share no state
  --keep-going        start even if a configured plugin fails to load (the failure is still reported)
  --context-header NAME  a request header that plugins with the plugin context may read (repeatable;
                      none by default; added to mcp.context_headers). Headers that carry credentials
                      (authorization, proxy-authorization, cookie, *token*, *api-key*, ...) are refused ...
  --context-header-allow-credentials  ... unless this is given (mcp.context_headers_allow_credentials):
                      the plugins then receive the callers' credentials as they are
  --plugin-log-limit N  log messages one call of a plugin with the plugin context may send a second
                      (default 100; 0 = no limit; mcp.plugin_log_limit); beyond, they are dropped and one
                      warning says how many
  --sandbox SPEC      the OS sandbox of every isolated plugin whose config entry has no sandbox:, written
                      like that key, inline: '{read: [/srv/data], connect: [5432], memory_mb: 512}' ({} is the
                      strictest); see the loader README, "The OS sandbox"
  --sandbox-audit     every sandbox logs the system calls it would refuse (to the plugin's stderr) instead of
                      refusing them, and leaves the file and network rules off; plugins with none get {}
  --auth-jwks URL     with --http: require a JWT bearer token signed by a key of this JWKS ...
  --auth-issuer ISS   ... issued by ISS (the authorization server; named in the RFC 9728 metadata) ...
  --auth-audience AUD ... for audience AUD (this server's resource URL); all three go together
  --auth-token-file FILE  with --http: accept the fixed bearer tokens in FILE, one a line, each
                      optionally followed by the scopes it grants (# starts a comment)
  --redis URL         share sessions, resumption logs and listen streams with other serve processes
                      through Redis (HTTP only; also mcp.redis in the config)
  --redis-timeout MS  the deadline of every wait on Redis (default 3000; also mcp.redis_timeout_ms):
                      a request that needs Redis fails with 503 when Redis stalls this long
  --sse-keep-alive MS with --http: a comment on every open SSE stream this often (default 15000; also
                      mcp.sse_keep_alive_ms): proxies keep quiet streams open, and a stream whose
                      client left (a proxy still holding its connection) is found and let go
  --drain-timeout MS  with --http: on SIGTERM or SIGINT, the health check (/healthz) fails and new work is
                      refused with 503; calls and tasks in flight get this long (default 10000; 0 = none;
                      mcp.drain_timeout_ms), then get an error (tasks fail) and serve exits. A second
                      signal exits at once
  --workers N         N processes on this machine sharing the HTTP port, each with its own plugin
                      hosts (N > 1 needs Redis; the MRTR sealing key is shared through config:
                      mcp.request_state_key, or one made at start-up for all workers)
  --metrics [HOST:]PORT  Prometheus metrics at http://HOST:PORT/metrics, a listener of its own (also
                      mcp.metrics; with --workers, one endpoint adding up every worker). It has no
                      authentication: HOST defaults to 127.0.0.1, and any other address is warned about
  --log-format FORMAT text (default) or json: serve's own log lines on stderr, JSON with the trace and span
                      ids of the request a line concerns
  --max-sessions-per-client N     with --http: legacy sessions one client may hold in this process
                      (default 100; 0 = no limit; mcp.max_sessions_per_client). A client is its
                      principal with --auth-*, else its address
  --max-streams-per-client N      with --http: open responses (SSE and GET streams, answers being
                      waited for) one client may hold (default 256; 0 = no limit; mcp.max_streams_per_client)
  --max-connections-per-client N  with --http: connections one address may hold in use (a request
                      in progress or its response open; default 256; 0 = no limit;
                      mcp.max_connections_per_client); beyond, requests get 429
  --trusted-proxy ADDR  a load balancer whose X-Forwarded-For names the client (repeatable;
                      mcp.trusted_proxies); its own connections are not counted per address.
                      Behind a load balancer, set it: else every client shares the balancer's address
OpenTelemetry: OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER/OTEL_METRICS_EXPORTER=otlp) exports
spans and metrics over OTLP (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or http/json); OTEL_SERVICE_NAME,
OTEL_TRACES_SAMPLER and the other standard variables apply`;

/** Parses `[HOST:]PORT`; HOST defaults to 127.0.0.1, brackets allowed around IPv6 (`[::1]:8080`). */
export function parseHttpAddress(text: string, option = '--http'): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(text.trim());
  if (!match) throw new UsageError(`${option} expects [HOST:]PORT, got "${text}"`);
  const port = Number(match[2]);
  if (port > 65535) throw new UsageError(`${option} port must be 0-65535, got ${port}`);
  const host = match[1] ? match[1].replace(/^\[(.*)\]$/, '$1') : '127.0.0.1';
  return { host, port };
}

/** An HTTP header name (an RFC 9110 token), lower-cased; else the refusal naming `option`. */
export function contextHeaderName(text: string, option: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(text))
    throw new UsageError(`${option} expects an HTTP header name, got ${JSON.stringify(text)}`);
  return text.toLowerCase();
}

function positiveInt(option: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${option} expects a positive whole number of milliseconds, got "${text}"`);
  }
  return value;
}

export function parseServeArgs(argv: readonly string[], cwd: string = process.cwd()): ServeArgs {
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(argv));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument "${positionals[0]}" (plugins are given with --plugin PATH)`);
  }
  if (values.stdio && values.http !== undefined)
    throw new UsageError('--stdio and --http exclude each other');
  const isolation = values.isolation;
  if (isolation !== undefined && isolation !== 'process' && isolation !== 'none') {
    throw new UsageError(`--isolation expects process or none, got "${isolation}"`);
  }
  const args: {
    -readonly [K in keyof ServeArgs]: ServeArgs[K];
  } = {
    plugins: (values.plugin ?? []).map((p) => resolve(cwd, p)),
    toolsModules: (values['tools-module'] ?? []).map((p) => resolve(cwd, p)),
    transport:
      values.http !== undefined ? { kind: 'http', ...parseHttpAddress(values.http) } : { kind: 'stdio' },
    keepGoing: values['keep-going'] ?? false,
    help: values.help ?? false,
    limits: parseLimits(values),
    contextHeaders: (values['context-header'] ?? []).map((h) => contextHeaderName(h, '--context-header')),
    contextHeadersAllowCredentials: values['context-header-allow-credentials'] ?? false,
  };
  if (values['sandbox-audit']) args.sandboxAudit = true;
  try {
    if (values.sandbox !== undefined) args.sandbox = readSandboxFlag(values.sandbox, cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (Object.keys(args.limits).length > 0 && args.transport.kind !== 'http')
    throw new UsageError('--max-*-per-client and --trusted-proxy need --http');
  const auth = parseAuth(values, cwd);
  if (auth !== undefined) {
    if (args.transport.kind !== 'http') throw new UsageError('--auth-* options need --http');
    args.auth = auth;
  }
  if (values.config !== undefined) args.configFile = resolve(cwd, values.config);
  if (values.root !== undefined) args.root = resolve(cwd, values.root);
  if (isolation !== undefined) args.isolation = isolation;
  if (values.timeout !== undefined) args.timeoutMs = positiveInt('--timeout', values.timeout);
  if (values.concurrency !== undefined) {
    const n = Number(values.concurrency);
    if (!/^\d+$/.test(values.concurrency) || n < 1 || n > 100_000) {
      throw new UsageError(
        `--concurrency expects a whole number from 1 to 100000, got "${values.concurrency}"`,
      );
    }
    args.concurrency = n;
  }
  if (values.redis !== undefined) args.redis = values.redis;
  if (values['redis-timeout'] !== undefined)
    args.redisTimeoutMs = positiveInt('--redis-timeout', values['redis-timeout']);
  if (values['sse-keep-alive'] !== undefined)
    args.sseKeepAliveMs = positiveInt('--sse-keep-alive', values['sse-keep-alive']);
  const drain = values['drain-timeout'];
  if (drain !== undefined) {
    if (!/^\d+$/.test(drain) || !Number.isSafeInteger(Number(drain)))
      throw new UsageError(
        `--drain-timeout expects a whole number of milliseconds (0: none), got "${drain}"`,
      );
    if (args.transport.kind !== 'http') throw new UsageError('--drain-timeout needs --http');
    args.drainTimeoutMs = Number(drain);
  }
  if (values.workers !== undefined) {
    const n = Number(values.workers);
    if (!/^\d+$/.test(values.workers) || n < 1 || n > 64) {
      throw new UsageError(`--workers expects a whole number from 1 to 64, got "${values.workers}"`);
    }
    if (n > 1 && args.transport.kind !== 'http')
      throw new UsageError('--workers needs --http (stdio is one client, one process)');
    args.workers = n;
  }
  const logLimit = values['plugin-log-limit'];
  if (logLimit !== undefined) {
    if (!/^\d+$/.test(logLimit) || !Number.isSafeInteger(Number(logLimit)))
      throw new UsageError(`--plugin-log-limit expects a whole number (0: no limit), got "${logLimit}"`);
    args.pluginLogLimit = Number(logLimit);
  }
  if (values.metrics !== undefined) args.metrics = parseHttpAddress(values.metrics, '--metrics');
  const logFormat = values['log-format'];
  if (logFormat !== undefined) {
    if (logFormat !== 'text' && logFormat !== 'json')
      throw new UsageError(`--log-format expects text or json, got "${logFormat}"`);
    args.logFormat = logFormat;
  }
  if (values.instances !== undefined) {
    const n = Number(values.instances);
    if (!/^\d+$/.test(values.instances) || n < 1 || n > 256) {
      throw new UsageError(`--instances expects a whole number from 1 to 256, got "${values.instances}"`);
    }
    args.instances = n;
  }
  return args;
}

/** `--max-*-per-client N` (0 turns a limit off) and `--trusted-proxy ADDR`. */
function parseLimits(values: ReturnType<typeof parse>['values']): ClientLimitsConfig {
  const limits: { -readonly [K in keyof ClientLimitsConfig]: ClientLimitsConfig[K] } = {};
  const flags = [
    ['max-sessions-per-client', 'maxSessionsPerClient'],
    ['max-streams-per-client', 'maxStreamsPerClient'],
    ['max-connections-per-client', 'maxConnectionsPerClient'],
  ] as const;
  for (const [flag, option] of flags) {
    const text = values[flag];
    if (text === undefined) continue;
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n))
      throw new UsageError(`--${flag} expects a whole number (0 turns the limit off), got "${text}"`);
    limits[option] = n;
  }
  const proxies = values['trusted-proxy'];
  if (proxies !== undefined) {
    const bad = proxies.find((a) => isIP(a) === 0);
    if (bad !== undefined) throw new UsageError(`--trusted-proxy expects an IP address, got "${bad}"`);
    limits.trustedProxies = proxies;
  }
  return limits;
}

function parseAuth(values: ReturnType<typeof parse>['values'], cwd: string): ServeAuthArgs | undefined {
  const jwks = values['auth-jwks'];
  const issuer = values['auth-issuer'];
  const audience = values['auth-audience'];
  const tokenFile = values['auth-token-file'];
  const jwt = [jwks, issuer, audience];
  if (jwt.every((v) => v === undefined) && tokenFile === undefined) return undefined;
  if (jwt.some((v) => v !== undefined) && jwt.some((v) => v === undefined)) {
    throw new UsageError('--auth-jwks, --auth-issuer and --auth-audience go together: give all three');
  }
  if (jwks !== undefined && !/^https?:\/\//.test(jwks)) {
    throw new UsageError(`--auth-jwks expects an http(s) URL, got "${jwks}"`);
  }
  return {
    ...(jwks === undefined ? {} : { jwksUrl: jwks, issuer, audience }),
    ...(tokenFile === undefined ? {} : { tokenFile: resolve(cwd, tokenFile) }),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      config: { type: 'string' },
      plugin: { type: 'string', multiple: true },
      stdio: { type: 'boolean' },
      http: { type: 'string' },
      root: { type: 'string' },
      isolation: { type: 'string' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      'tools-module': { type: 'string', multiple: true },
      instances: { type: 'string' },
      'keep-going': { type: 'boolean' },
      'context-header': { type: 'string', multiple: true },
      'context-header-allow-credentials': { type: 'boolean' },
      'plugin-log-limit': { type: 'string' },
      sandbox: { type: 'string' },
      'sandbox-audit': { type: 'boolean' },
      'auth-jwks': { type: 'string' },
      'auth-issuer': { type: 'string' },
      'auth-audience': { type: 'string' },
      'auth-token-file': { type: 'string' },
      redis: { type: 'string' },
      'redis-timeout': { type: 'string' },
      'sse-keep-alive': { type: 'string' },
      'drain-timeout': { type: 'string' },
      workers: { type: 'string' },
      metrics: { type: 'string' },
      'log-format': { type: 'string' },
      'max-sessions-per-client': { type: 'string' },
      'max-streams-per-client': { type: 'string' },
      'max-connections-per-client': { type: 'string' },
      'trusted-proxy': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
