// Every option of `entropic-mcp serve`, declared once: its flag, its key in the config file, its usage text and,
// for the options this table reads itself, how its value is read, how the flag and the file combine, and the
// HTTP handler option it sets. The command-line parser, `serve --help`, the config file's known keys (and their
// "did you mean"), the plan's merge and the README check are derived from these rows (./option-uses.ts).
import type { McpHttpHandlerOptions } from '@entropic-mcp/server/http';
import { rateLimits } from './rate-limits.js';
import {
  address,
  bytesOrZero,
  hostList,
  limitOrZero,
  onOff,
  originList,
  positiveMs,
  type Reader,
  redisUrl,
} from './values.js';

/** How a flag and its config key combine: the flag wins, both lists count, or either switch turns it on. */
export type Merge = 'flag' | 'join' | 'either';

export interface OptionRow {
  /** The flag, without `--`; absent for a key the config file alone has. */
  readonly flag?: string;
  readonly short?: string;
  /** What follows the flag in the usage (`MS`, `[HOST:]PORT`); absent for a switch. */
  readonly value?: string;
  /** The flag may be given more than once. */
  readonly repeat?: boolean;
  /** `serve --help`'s text for the flag, one string per line. */
  readonly help?: readonly string[];
  /** The key under `mcp:` in the config file. */
  readonly yaml?: string;
  /**
   * For a row this table reads itself: the name of the setting in ServeArgs, ServeFileConfig and ServePlan, its
   * reader (the same for the flag's text and the YAML value), how the two combine (default: the flag wins), and
   * whether the flag needs `--http`.
   */
  readonly setting?: string;
  readonly read?: Reader<unknown>;
  readonly merge?: Merge;
  readonly needsHttp?: boolean;
  /** The HTTP handler option the setting is handed to, as it is. */
  readonly handler?: keyof McpHttpHandlerOptions;
}

/** The rows, in the order `serve --help` shows them. */
export const SERVE_OPTIONS = [
  {
    flag: 'config',
    value: 'FILE',
    help: ['YAML config; plugins under mcp: plugins: (paths relative to the file)'],
  },
  {
    flag: 'plugin',
    value: 'PATH',
    repeat: true,
    yaml: 'plugins',
    help: ["a plugin .so to serve (repeatable; added after the config's plugins)"],
  },
  { flag: 'stdio', help: ['serve on stdin/stdout (the default)'] },
  {
    flag: 'http',
    value: '[HOST:]PORT',
    help: ['serve Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; PORT 0 picks one)'],
  },
  {
    flag: 'root',
    value: 'DIR',
    yaml: 'working_dir',
    help: ['working directory handed to every plugin (default: the current directory)'],
  },
  {
    flag: 'isolation',
    value: 'MODE',
    help: ['process (default: each plugin in its own host process) or none (in-process)'],
  },
  {
    flag: 'timeout',
    value: 'MS',
    yaml: 'server_timeout_seconds',
    help: [
      "per-call time limit for every plugin (a config entry's timeout_ms wins; the file's key is in seconds)",
    ],
  },
  {
    flag: 'concurrency',
    value: 'N',
    help: [
      'plugin calls in flight at once across all plugins (default 64; each plugin',
      'instance still runs its own calls one at a time)',
    ],
  },
  {
    flag: 'tools-module',
    value: 'FILE',
    repeat: true,
    yaml: 'tools_modules',
    help: [
      'a JavaScript module whose register(server, { root }) adds tools, resources or',
      "prompts beside the plugins' (repeatable)",
    ],
  },
  {
    flag: 'instances',
    value: 'N',
    help: [
      "instances of each plugin (default 1; a config entry's instances wins): N host processes",
      '(or threads in-process), calls go to the least busy; instances share no state',
    ],
  },
  {
    flag: 'keep-going',
    help: ['start even if a configured plugin fails to load (the failure is still reported)'],
  },
  {
    flag: 'context-header',
    value: 'NAME',
    repeat: true,
    yaml: 'context_headers',
    help: [
      'a request header that plugins with the plugin context may read (repeatable;',
      'none by default; added to mcp.context_headers). Headers that carry credentials',
      '(authorization, proxy-authorization, cookie, *token*, *api-key*, ...) are refused ...',
    ],
  },
  {
    flag: 'context-header-allow-credentials',
    yaml: 'context_headers_allow_credentials',
    setting: 'contextHeadersAllowCredentials',
    read: onOff,
    merge: 'either',
    help: [
      '... unless this is given (mcp.context_headers_allow_credentials):',
      "the plugins then receive the callers' credentials as they are",
    ],
  },
  {
    flag: 'plugin-log-limit',
    value: 'N',
    yaml: 'plugin_log_limit',
    setting: 'pluginLogLimit',
    read: limitOrZero,
    help: [
      'log messages one call of a plugin with the plugin context may send a second',
      '(default 100; 0 = no limit; mcp.plugin_log_limit); beyond, they are dropped and one',
      'warning says how many',
    ],
  },
  {
    flag: 'max-answer-bytes',
    value: 'N',
    yaml: 'max_answer_bytes',
    setting: 'maxAnswerBytes',
    read: bytesOrZero,
    help: [
      'the longest answer one plugin call may give, in bytes of its JSON (default 16 MiB; 0 = no',
      "limit; mcp.max_answer_bytes; a config entry's max_answer_bytes wins): a longer one fails the",
      'call with an error naming its size, before it is decoded, and other calls keep flowing',
    ],
  },
  {
    flag: 'rate-limit',
    value: '[TOOL=]RATE[/BURST]',
    repeat: true,
    yaml: 'rate_limits',
    setting: 'rateLimits',
    read: rateLimits,
    help: [
      'requests a second per caller (token bucket; repeatable; also mcp.rate_limits): RATE alone',
      'for every request, TOOL=RATE for one tool (its own bucket). A caller is its principal with',
      '--auth-*, else its address; with --redis every process shares the buckets. Over the limit:',
      'HTTP 429 with Retry-After, else a JSON-RPC error -32029 with data.retryAfterMs',
    ],
  },
  {
    flag: 'sandbox',
    value: 'SPEC',
    help: [
      'the OS sandbox of every isolated plugin whose config entry has no sandbox:, written',
      "like that key, inline: '{read: [/srv/data], connect: [5432], memory_mb: 512}' ({} is the",
      'strictest); see the loader README, "The OS sandbox"',
    ],
  },
  {
    flag: 'sandbox-audit',
    help: [
      "every sandbox logs the system calls it would refuse (to the plugin's stderr) instead of",
      'refusing them, and leaves the file and network rules off; plugins with none get {}',
    ],
  },
  {
    flag: 'auth-jwks',
    value: 'URL',
    help: ['with --http: require a JWT bearer token signed by a key of this JWKS ...'],
  },
  {
    flag: 'auth-issuer',
    value: 'ISS',
    help: ['... issued by ISS (the authorization server; named in the RFC 9728 metadata) ...'],
  },
  {
    flag: 'auth-audience',
    value: 'AUD',
    help: ["... for audience AUD (this server's resource URL); all three go together"],
  },
  {
    flag: 'auth-token-file',
    value: 'FILE',
    help: [
      'with --http: accept the fixed bearer tokens in FILE, one a line, each',
      'optionally followed by the scopes it grants (# starts a comment)',
    ],
  },
  {
    flag: 'allowed-hosts',
    value: 'HOSTS',
    repeat: true,
    yaml: 'allowed_hosts',
    setting: 'allowedHosts',
    read: hostList,
    merge: 'join',
    needsHttp: true,
    handler: 'allowedHosts',
    help: [
      'with --http: the Host header values served (comma-separated or repeated; HOST or',
      'HOST:PORT; also mcp.allowed_hosts). Default: the loopback names; any other Host gets 403.',
      'Bound to another address (behind a proxy), list the names clients use',
    ],
  },
  {
    flag: 'allowed-origins',
    value: 'ORIGINS',
    repeat: true,
    yaml: 'allowed_origins',
    setting: 'allowedOrigins',
    read: originList,
    merge: 'join',
    needsHttp: true,
    handler: 'allowedOrigins',
    help: [
      'with --http: the Origin header values served, for browser clients (comma-separated',
      'or repeated; SCHEME://HOST[:PORT]; also mcp.allowed_origins). Default: loopback origins',
    ],
  },
  {
    flag: 'redis',
    value: 'URL',
    yaml: 'redis',
    setting: 'redis',
    read: redisUrl,
    help: [
      'share sessions, resumption logs and listen streams with other serve processes',
      'through Redis (HTTP only; also mcp.redis in the config)',
    ],
  },
  {
    flag: 'redis-timeout',
    value: 'MS',
    yaml: 'redis_timeout_ms',
    setting: 'redisTimeoutMs',
    read: positiveMs,
    help: [
      'the deadline of every wait on Redis (default 3000; also mcp.redis_timeout_ms):',
      'a request that needs Redis fails with 503 when Redis stalls this long',
    ],
  },
  { yaml: 'request_state_key' },
  { yaml: 'node_timeout_ms' },
  { yaml: 'tasks' },
  {
    flag: 'sse-keep-alive',
    value: 'MS',
    yaml: 'sse_keep_alive_ms',
    setting: 'sseKeepAliveMs',
    read: positiveMs,
    handler: 'keepAliveMs',
    help: [
      'with --http: a comment on every open SSE stream this often (default 15000; also',
      'mcp.sse_keep_alive_ms): proxies keep quiet streams open, and a stream whose',
      'client left (a proxy still holding its connection) is found and let go',
    ],
  },
  {
    flag: 'drain-timeout',
    value: 'MS',
    yaml: 'drain_timeout_ms',
    help: [
      'with --http: on SIGTERM or SIGINT, the health check (/healthz) fails and new work is',
      'refused with 503; calls and tasks in flight get this long (default 10000; 0 = none;',
      'mcp.drain_timeout_ms), then get an error (tasks fail) and serve exits. A second',
      'signal exits at once',
    ],
  },
  {
    flag: 'workers',
    value: 'N',
    help: [
      'N processes on this machine sharing the HTTP port, each with its own plugin',
      'hosts (N > 1 needs Redis; the MRTR sealing key is shared through config:',
      'mcp.request_state_key, or one made at start-up for all workers)',
    ],
  },
  {
    flag: 'metrics',
    value: '[HOST:]PORT',
    yaml: 'metrics',
    setting: 'metrics',
    read: address,
    help: [
      'Prometheus metrics at http://HOST:PORT/metrics, a listener of its own (also',
      'mcp.metrics; with --workers, one endpoint adding up every worker). It has no',
      'authentication: HOST defaults to 127.0.0.1, and any other address is warned about',
    ],
  },
  {
    flag: 'log-format',
    value: 'FORMAT',
    help: [
      "text (default) or json: serve's own log lines on stderr, JSON with the trace and span",
      'ids of the request a line concerns',
    ],
  },
  {
    flag: 'max-sessions-per-client',
    value: 'N',
    yaml: 'max_sessions_per_client',
    help: [
      'with --http: legacy sessions one client may hold in this process',
      '(default 100; 0 = no limit; mcp.max_sessions_per_client). A client is its',
      'principal with --auth-*, else its address',
    ],
  },
  {
    flag: 'max-streams-per-client',
    value: 'N',
    yaml: 'max_streams_per_client',
    help: [
      'with --http: open responses (SSE and GET streams, answers being',
      'waited for) one client may hold (default 256; 0 = no limit; mcp.max_streams_per_client)',
    ],
  },
  {
    flag: 'max-connections-per-client',
    value: 'N',
    yaml: 'max_connections_per_client',
    help: [
      'with --http: connections one address may hold in use (a request',
      'in progress or its response open; default 256; 0 = no limit;',
      'mcp.max_connections_per_client); beyond, requests get 429',
    ],
  },
  {
    flag: 'trusted-proxy',
    value: 'ADDR',
    repeat: true,
    yaml: 'trusted_proxies',
    help: [
      'a load balancer whose X-Forwarded-For names the client (repeatable;',
      'mcp.trusted_proxies); its own connections are not counted per address.',
      "Behind a load balancer, set it: else every client shares the balancer's address",
    ],
  },
  { flag: 'help', short: 'h', help: ['this text'] },
] as const satisfies readonly OptionRow[];
