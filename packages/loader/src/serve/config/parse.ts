// Reads the YAML config of `entropic-mcp serve` (the engine's format) into plugin entries, refusing what it cannot use.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { closest, didYouMean } from '../../suggest.js';
import type { Isolation } from '../../types.js';
import type { PluginEntry, ServeFileConfig } from './types.js';

/** A config file that cannot be used; the message names the file and the offending key. */
export class ConfigError extends Error {
  readonly code = 'ENTROPIC_MCP_CONFIG_INVALID';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ConfigError';
  }
}

const ENTRY_KEYS = ['path', 'config', 'isolation', 'timeout_ms', 'memory_limit_mb', 'instances'];
const MCP_KEYS = ['plugins', 'working_dir', 'server_timeout_seconds'];

/** Refuses a key of `where` that is not one of `known`, suggesting the nearest. */
function checkKeys(
  file: string,
  where: string,
  raw: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    throw new ConfigError(
      file,
      `${where} has an unknown key "${key}"${didYouMean(key, known)} (known: ${known.join(', ')})`,
    );
  }
}

/**
 * The engine keeps keys of its own under `mcp` (`enable_git`, …), which serve leaves alone; a key that is a
 * near miss of one serve reads (`plugin` for `plugins`) is refused instead of being ignored.
 */
function checkNearMisses(file: string, mcp: Record<string, unknown>): void {
  for (const key of Object.keys(mcp)) {
    if (MCP_KEYS.includes(key)) continue;
    const near = closest(key, MCP_KEYS);
    if (near !== undefined) {
      throw new ConfigError(
        file,
        `mcp has an unknown key "${key}"; did you mean \`${near}\`? (serve reads ${MCP_KEYS.join(', ')})`,
      );
    }
  }
}

/**
 * Top-level keys other than `mcp` belong to the engine and are left alone, except a likely typo of `mcp`
 * or an `mcp` key written at the top level.
 */
function checkTopLevel(file: string, doc: Record<string, unknown>): void {
  for (const key of Object.keys(doc)) {
    if (key === 'mcp') continue;
    if (closest(key, ['mcp']) !== undefined) {
      throw new ConfigError(file, `unknown top-level key "${key}"; did you mean \`mcp\`?`);
    }
    const inner = closest(key, MCP_KEYS);
    if (inner !== undefined) {
      throw new ConfigError(file, `"${key}" is not read at the top level; did you mean \`mcp: ${inner}:\`?`);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveInt(file: string, where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new ConfigError(file, `${where} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function isolationOf(file: string, where: string, value: unknown): Isolation {
  if (value !== 'process' && value !== 'none') {
    throw new ConfigError(file, `${where} must be "process" or "none", got ${JSON.stringify(value)}`);
  }
  return value;
}

function pluginPath(file: string, where: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigError(file, `${where} must be a non-empty path string, got ${JSON.stringify(value)}`);
  }
  return isAbsolute(value) ? value : resolve(dirname(file), value);
}

function parseEntry(file: string, index: number, raw: unknown): PluginEntry {
  const where = `mcp.plugins[${index}]`;
  if (typeof raw === 'string') return { path: pluginPath(file, where, raw) };
  if (!isRecord(raw)) {
    throw new ConfigError(file, `${where} must be a path string or a mapping with "path"`);
  }
  checkKeys(file, where, raw, ENTRY_KEYS);
  const entry: {
    path: string;
    config?: unknown;
    isolation?: Isolation;
    timeoutMs?: number;
    memoryLimitMb?: number;
    instances?: number;
  } = { path: pluginPath(file, `${where}.path`, raw.path) };
  if (raw.config !== undefined) entry.config = raw.config;
  if (raw.isolation !== undefined) entry.isolation = isolationOf(file, `${where}.isolation`, raw.isolation);
  if (raw.timeout_ms !== undefined)
    entry.timeoutMs = positiveInt(file, `${where}.timeout_ms`, raw.timeout_ms);
  if (raw.memory_limit_mb !== undefined) {
    entry.memoryLimitMb = positiveInt(file, `${where}.memory_limit_mb`, raw.memory_limit_mb);
  }
  if (raw.instances !== undefined) entry.instances = positiveInt(file, `${where}.instances`, raw.instances);
  return entry;
}

/**
 * Reads the parts of an engine-style YAML config that `serve` uses: `mcp.plugins` (each a path or a
 * mapping), `mcp.working_dir` and `mcp.server_timeout_seconds`. An unknown key in a plugin entry is refused,
 * with the nearest known key; other keys are the engine's and are ignored, except near misses of serve's own
 * (`plugin:` under `mcp`, `mpc:` or `plugins:` at the top level), which are refused with a suggestion.
 * `file` must be absolute; relative paths inside are resolved against its folder.
 */
export function parseServeConfig(text: string, file: string): ServeFileConfig {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ConfigError(file, `not valid YAML: ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) throw new ConfigError(file, 'the file is empty');
  if (!isRecord(doc)) throw new ConfigError(file, 'the top level must be a mapping');
  checkTopLevel(file, doc);
  const mcp = doc.mcp;
  if (mcp === undefined)
    throw new ConfigError(file, 'no "mcp" section (plugins are listed under mcp: plugins:)');
  if (!isRecord(mcp)) throw new ConfigError(file, '"mcp" must be a mapping');
  checkNearMisses(file, mcp);
  const list = mcp.plugins ?? [];
  if (!Array.isArray(list)) throw new ConfigError(file, 'mcp.plugins must be a list');
  const config: {
    file: string;
    plugins: PluginEntry[];
    root?: string;
    timeoutMs?: number;
    redis?: string;
    requestStateKey?: string;
  } = {
    file,
    plugins: list.map((raw, i) => parseEntry(file, i, raw)),
  };
  if (mcp.working_dir !== undefined) config.root = pluginPath(file, 'mcp.working_dir', mcp.working_dir);
  if (mcp.server_timeout_seconds !== undefined) {
    config.timeoutMs = positiveInt(file, 'mcp.server_timeout_seconds', mcp.server_timeout_seconds) * 1000;
  }
  if (mcp.redis !== undefined) {
    if (typeof mcp.redis !== 'string' || !/^rediss?:\/\//.test(mcp.redis))
      throw new ConfigError(file, 'mcp.redis must be a URL starting with redis:// or rediss://');
    config.redis = mcp.redis;
  }
  if (mcp.request_state_key !== undefined) {
    if (typeof mcp.request_state_key !== 'string' || mcp.request_state_key.length < 32)
      throw new ConfigError(file, 'mcp.request_state_key must be a string of at least 32 characters');
    config.requestStateKey = mcp.request_state_key;
  }
  return config;
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
