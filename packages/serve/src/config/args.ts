// Parses the `entropic-mcp serve` command line into ServeArgs.

import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import { closest } from '@entropic-mcp/loader/internal';
import { UsageError } from './errors.js';
import { PARSE_OPTIONS, serveUsage, TABLE_READ, type TableSettings } from './option-uses.js';
import { readSandboxFlag } from './sandbox.js';
import type { ClientLimitsConfig } from './types.js';
import { address } from './values.js';

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

/**
 * The command line of `entropic-mcp serve`, checked, with paths made absolute. The settings the option table reads
 * itself (`TableSettings`: `redis`, `redisTimeoutMs`, `allowedHosts`, …) come from its rows.
 */
export interface ServeArgs extends TableSettings {
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
  /** `--drain-timeout MS`: on SIGTERM/SIGINT, how long calls and tasks in flight may finish. */
  readonly drainTimeoutMs?: number;
  /** `--workers N`: processes on this machine sharing the port (more than 1 needs Redis). */
  readonly workers?: number;
  /** `--log-format`: serve's own log lines as text (default) or JSON. */
  readonly logFormat?: 'text' | 'json';
  /** `--max-sessions-per-client`, `--max-streams-per-client`, `--max-connections-per-client`, `--trusted-proxy`. */
  readonly limits: ClientLimitsConfig;
  /** `--context-header NAME`: request headers a plugin with the plugin context may read. */
  readonly contextHeaders: readonly string[];
  /** `--context-header-allow-credentials`: context headers may carry credentials (authorization, cookies). */
  readonly contextHeadersAllowCredentials: boolean;
  /** `--sandbox SPEC`: the OS sandbox of every plugin whose entry sets none. */
  readonly sandbox?: SandboxOptions;
  /** `--sandbox-audit`: every plugin's sandbox logs what it would refuse instead of refusing it. */
  readonly sandboxAudit?: boolean;
}

export { UsageError };

/** `serve --help` (from the option table). */
export const SERVE_USAGE = serveUsage();

/** Parses `[HOST:]PORT`; HOST defaults to 127.0.0.1, brackets allowed around IPv6 (`[::1]:8080`). */
export function parseHttpAddress(text: string, option = '--http'): { host: string; port: number } {
  try {
    return address(text, option);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
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
    throw new UsageError(withSuggestion((err as Error).message));
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
    contextHeadersAllowCredentials: false,
    ...readTableFlags(values, values.http !== undefined),
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
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS });
}

/**
 * The settings the option table reads itself, from their flags: each row's reader, the same as for its config key;
 * an absent switch reads as false. A row that needs --http is refused without it.
 */
function readTableFlags(values: Record<string, unknown>, http: boolean): TableSettings {
  const out: Record<string, unknown> = {};
  for (const row of TABLE_READ) {
    if (row.flag === undefined) continue;
    const raw = values[row.flag];
    if (raw === undefined) {
      if (row.value === undefined) out[row.setting] = false;
      continue;
    }
    if (row.needsHttp && !http) throw new UsageError(`--${row.flag} needs --http`);
    try {
      out[row.setting] = row.read(raw, `--${row.flag}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return out as TableSettings;
}

/** parseArgs' "Unknown option '--htp'" with the nearest flag of the table: "; did you mean `--http`?". */
function withSuggestion(message: string): string {
  const unknown = /^Unknown option '--([^']+)'/.exec(message);
  if (unknown === null) return message;
  const near = closest(unknown[1] ?? '', Object.keys(PARSE_OPTIONS));
  return near === undefined ? message : `${unknown[0]}; did you mean \`--${near}\`?`;
}
