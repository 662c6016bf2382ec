// Reads the YAML config of `entropic-mcp serve` (the engine's format) into plugin entries, refusing what it cannot use.
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import { closest } from '@entropic-mcp/loader/internal';
import { contextHeaderName } from './args.js';
import { MCP_KEYS, TABLE_READ, type TableSettings } from './option-uses.js';
import { readSandbox } from './sandbox.js';
import { parseScopes, type ScopesSetting } from './scopes.js';
import { ConfigError, checkKeys, configPath, isRecord, type Path, positiveInt, Source } from './source.js';
import {
  parseTaskLimits,
  parseTaskSupport,
  parseToolsModules,
  type TaskLimits,
  type ToolsModuleEntry,
} from './tasks.js';
import type { ClientLimitsConfig, PluginEntry, ServeFileConfig } from './types.js';
import { bytesOrZero } from './values.js';

export { ConfigError } from './source.js';

/** The per-client limits under `mcp`, and the option each sets. */
const LIMIT_KEYS = {
  max_sessions_per_client: 'maxSessionsPerClient',
  max_streams_per_client: 'maxStreamsPerClient',
  max_connections_per_client: 'maxConnectionsPerClient',
} as const;
const ENTRY_KEYS = [
  'path',
  'config',
  'isolation',
  'timeout_ms',
  'memory_limit_mb',
  'instances',
  'task_support',
  'sandbox',
  'max_answer_bytes',
  'scopes',
];
/**
 * The engine keeps keys of its own under `mcp` (`enable_git`, …), which serve leaves alone; a key that is a
 * near miss of one serve reads (`plugin` for `plugins`) is refused instead of being ignored.
 */
function checkNearMisses(source: Source, mcp: Record<string, unknown>): void {
  for (const key of Object.keys(mcp)) {
    if (MCP_KEYS.includes(key)) continue;
    const near = closest(key, MCP_KEYS);
    if (near !== undefined) {
      throw source.error(
        `mcp has an unknown key "${key}"; did you mean \`${near}\`? (serve reads ${MCP_KEYS.join(', ')})`,
        ['mcp'],
        key,
      );
    }
  }
}

/**
 * Top-level keys other than `mcp` belong to the engine and are left alone, except a likely typo of `mcp`
 * or an `mcp` key written at the top level.
 */
function checkTopLevel(source: Source, doc: Record<string, unknown>): void {
  for (const key of Object.keys(doc)) {
    if (key === 'mcp') continue;
    if (closest(key, ['mcp']) !== undefined) {
      throw source.error(`unknown top-level key "${key}"; did you mean \`mcp\`?`, [], key);
    }
    const inner = closest(key, MCP_KEYS);
    if (inner !== undefined) {
      throw source.error(`"${key}" is not read at the top level; did you mean \`mcp: ${inner}:\`?`, [], key);
    }
  }
}

function isolationOf(source: Source, where: string, path: Path, value: unknown): Isolation {
  if (value !== 'process' && value !== 'none') {
    throw source.error(`${where} must be "process" or "none", got ${JSON.stringify(value)}`, path);
  }
  return value;
}

function parseEntry(source: Source, index: number, raw: unknown): PluginEntry {
  const where = `mcp.plugins[${index}]`;
  const at = ['mcp', 'plugins', index];
  if (typeof raw === 'string') return { path: configPath(source, where, at, raw) };
  if (!isRecord(raw)) {
    throw source.error(`${where} must be a path string or a mapping with "path"`, at);
  }
  checkKeys(source, where, at, raw, ENTRY_KEYS);
  const entry: {
    path: string;
    config?: unknown;
    isolation?: Isolation;
    timeoutMs?: number;
    memoryLimitMb?: number;
    instances?: number;
    taskSupport?: PluginEntry['taskSupport'];
    sandbox?: SandboxOptions | false;
    maxAnswerBytes?: number;
    scopes?: ScopesSetting;
  } = { path: configPath(source, `${where}.path`, raw.path === undefined ? at : [...at, 'path'], raw.path) };
  if (raw.config !== undefined) entry.config = raw.config;
  if (raw.isolation !== undefined)
    entry.isolation = isolationOf(source, `${where}.isolation`, [...at, 'isolation'], raw.isolation);
  if (raw.timeout_ms !== undefined)
    entry.timeoutMs = positiveInt(source, `${where}.timeout_ms`, [...at, 'timeout_ms'], raw.timeout_ms);
  if (raw.memory_limit_mb !== undefined) {
    entry.memoryLimitMb = positiveInt(
      source,
      `${where}.memory_limit_mb`,
      [...at, 'memory_limit_mb'],
      raw.memory_limit_mb,
    );
  }
  if (raw.instances !== undefined)
    entry.instances = positiveInt(source, `${where}.instances`, [...at, 'instances'], raw.instances);
  if (raw.task_support !== undefined) {
    const supportAt = [...at, 'task_support'];
    entry.taskSupport = parseTaskSupport(source, `${where}.task_support`, supportAt, raw.task_support);
  }
  if (raw.scopes !== undefined)
    entry.scopes = parseScopes(source, `${where}.scopes`, [...at, 'scopes'], raw.scopes);
  try {
    if (raw.max_answer_bytes !== undefined)
      entry.maxAnswerBytes = bytesOrZero(raw.max_answer_bytes, `${where}.max_answer_bytes`);
  } catch (error) {
    throw source.error((error as Error).message, [...at, 'max_answer_bytes']);
  }
  try {
    if (raw.sandbox !== undefined)
      entry.sandbox = readSandbox(raw.sandbox, `${where}.sandbox`, dirname(source.file));
  } catch (error) {
    throw source.error((error as Error).message, [...at, 'sandbox']);
  }
  return entry;
}

/**
 * Reads the parts of an engine-style YAML config that `serve` uses: `mcp.plugins` (each a path or a
 * mapping), `mcp.working_dir`, `mcp.server_timeout_seconds`, `mcp.redis`, `mcp.request_state_key`, the
 * per-client limits (`mcp.max_*_per_client`, `mcp.trusted_proxies`), `mcp.node_timeout_ms`, `mcp.tools_modules`, `mcp.tasks`, `mcp.context_headers`
 * (with `mcp.context_headers_allow_credentials`) and `mcp.plugin_log_limit`. An
 * unknown key in a plugin entry is refused, with the nearest known key; other keys are the engine's and are
 * ignored, except near misses of serve's own (`plugin:` or `redis_url:` under `mcp`, `mpc:` or `plugins:` at the
 * top level), which are refused with a suggestion. Every refusal names the file and, when it can, the line.
 * `file` must be absolute; relative paths inside are resolved against its folder.
 */
export function parseServeConfig(text: string, file: string): ServeFileConfig {
  const source = new Source(file, text);
  const doc = source.data();
  if (doc === null || doc === undefined) throw new ConfigError(file, 'the file is empty');
  if (!isRecord(doc)) throw source.error('the top level must be a mapping', []);
  checkTopLevel(source, doc);
  const mcp = doc.mcp;
  if (mcp === undefined)
    throw new ConfigError(file, 'no "mcp" section (plugins are listed under mcp: plugins:)');
  if (!isRecord(mcp)) throw source.error('"mcp" must be a mapping', ['mcp']);
  checkNearMisses(source, mcp);
  const list = mcp.plugins ?? [];
  if (!Array.isArray(list)) throw source.error('mcp.plugins must be a list', ['mcp', 'plugins']);
  const config: {
    file: string;
    plugins: PluginEntry[];
    root?: string;
    timeoutMs?: number;
    drainTimeoutMs?: number;
    requestStateKey?: string;
    limits: ClientLimitsConfig;
    toolsModules?: ToolsModuleEntry[];
    tasks?: TaskLimits;
    nodeTimeoutMs?: number;
    contextHeaders?: string[];
  } = {
    file,
    plugins: list.map((raw, i) => parseEntry(source, i, raw)),
    limits: parseLimits(source, mcp),
    ...readTableKeys(source, mcp),
  };
  if (mcp.tools_modules !== undefined) config.toolsModules = parseToolsModules(source, mcp.tools_modules);
  if (mcp.node_timeout_ms !== undefined) {
    const at = ['mcp', 'node_timeout_ms'];
    config.nodeTimeoutMs = positiveInt(source, 'mcp.node_timeout_ms', at, mcp.node_timeout_ms);
    if (config.nodeTimeoutMs < 1000) throw source.error('mcp.node_timeout_ms must be at least 1000', at);
  }
  if (mcp.context_headers !== undefined)
    config.contextHeaders = parseContextHeaders(source, mcp.context_headers);
  if (mcp.tasks !== undefined) config.tasks = parseTaskLimits(source, mcp.tasks);
  if (mcp.working_dir !== undefined)
    config.root = configPath(source, 'mcp.working_dir', ['mcp', 'working_dir'], mcp.working_dir);
  if (mcp.server_timeout_seconds !== undefined) {
    const at = ['mcp', 'server_timeout_seconds'];
    config.timeoutMs =
      positiveInt(source, 'mcp.server_timeout_seconds', at, mcp.server_timeout_seconds) * 1000;
  }
  if (mcp.drain_timeout_ms !== undefined) {
    const value = mcp.drain_timeout_ms;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw source.error('mcp.drain_timeout_ms must be a whole number of milliseconds (0: none)', [
        'mcp',
        'drain_timeout_ms',
      ]);
    config.drainTimeoutMs = value;
  }
  if (mcp.request_state_key !== undefined) {
    if (typeof mcp.request_state_key !== 'string' || mcp.request_state_key.length < 32)
      throw source.error('mcp.request_state_key must be a string of at least 32 characters', [
        'mcp',
        'request_state_key',
      ]);
    config.requestStateKey = mcp.request_state_key;
  }
  return config;
}

/** The settings the option table reads itself, from their keys under `mcp`: each row's reader, as for its flag. */
function readTableKeys(source: Source, mcp: Record<string, unknown>): TableSettings {
  const out: Record<string, unknown> = {};
  for (const row of TABLE_READ) {
    const raw = row.yaml === undefined ? undefined : mcp[row.yaml];
    if (raw === undefined) continue;
    try {
      out[row.setting] = row.read(raw, `mcp.${row.yaml}`);
    } catch (error) {
      throw source.error((error as Error).message, ['mcp', row.yaml as string]);
    }
  }
  return out as TableSettings;
}

/** The per-client limits under `mcp` (whole numbers, 0 turning a limit off; addresses as a list). */
function parseLimits(source: Source, mcp: Record<string, unknown>): ClientLimitsConfig {
  const limits: { -readonly [K in keyof ClientLimitsConfig]: ClientLimitsConfig[K] } = {};
  for (const [key, option] of Object.entries(LIMIT_KEYS)) {
    const value = mcp[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw source.error(`mcp.${key} must be a whole number (0 turns the limit off)`, ['mcp', key]);
    limits[option] = value;
  }
  const proxies = mcp.trusted_proxies;
  if (proxies !== undefined) {
    if (!Array.isArray(proxies) || !proxies.every((a) => typeof a === 'string' && isIP(a) !== 0))
      throw source.error('mcp.trusted_proxies must be a list of IP addresses', ['mcp', 'trusted_proxies']);
    limits.trustedProxies = proxies as string[];
  }
  return limits;
}

/** `mcp.context_headers`: a list of request header names plugins with the plugin context may read. */
function parseContextHeaders(source: Source, value: unknown): string[] {
  const at = ['mcp', 'context_headers'];
  if (!Array.isArray(value)) throw source.error('mcp.context_headers must be a list of header names', at);
  return value.map((name, i) => {
    const where = `mcp.context_headers[${i}]`;
    if (typeof name !== 'string')
      throw source.error(`${where} must be a header name, got ${JSON.stringify(name)}`, [...at, i]);
    try {
      return contextHeaderName(name, where);
    } catch (error) {
      throw source.error((error as Error).message, [...at, i]);
    }
  });
}

/** Reads and parses a config file; `file` may be relative to the current directory. */
export async function loadServeConfig(file: string): Promise<ServeFileConfig> {
  const absolute = resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (err) {
    throw new ConfigError(absolute, `cannot read the config file: ${(err as Error).message}`);
  }
  return parseServeConfig(text, absolute);
}
