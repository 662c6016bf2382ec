// The task keys of a serve config: `task_support` of a plugin or tools module, `mcp.tools_modules`, `mcp.tasks`.
import { dirname, isAbsolute, resolve } from 'node:path';
import type { TaskSupport } from '@entropic-mcp/server';
import { didYouMean } from '../../suggest.js';

/** Whether tools run as tasks: one value for every tool, or by tool name (`"*"`: every other tool). */
export type TaskSupportSetting = TaskSupport | Readonly<Record<string, TaskSupport>>;

/** A tools module listed in the config. */
export interface ToolsModuleEntry {
  /** Absolute path of the module. */
  readonly path: string;
  readonly taskSupport?: TaskSupportSetting;
}

/** `mcp.tasks`: limits of the tasks every serve process of a deployment should agree on. */
export interface TaskLimits {
  readonly maxPerPrincipal?: number;
  readonly defaultTtlMs?: number;
  readonly maxTtlMs?: number;
  readonly pollIntervalMs?: number;
}

const SUPPORT: readonly string[] = ['forbidden', 'optional', 'required'];
const LIMIT_KEYS: Record<string, keyof TaskLimits> = {
  max_per_principal: 'maxPerPrincipal',
  default_ttl_ms: 'defaultTtlMs',
  max_ttl_ms: 'maxTtlMs',
  poll_interval_ms: 'pollIntervalMs',
};

type Fail = (message: string) => Error;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function supportOf(fail: Fail, where: string, value: unknown): TaskSupport {
  if (typeof value !== 'string' || !SUPPORT.includes(value)) {
    throw fail(`${where} must be "forbidden", "optional" or "required", got ${JSON.stringify(value)}`);
  }
  return value as TaskSupport;
}

/** `task_support: optional`, or `task_support: { "*": optional, build: required }`. */
export function parseTaskSupport(fail: Fail, where: string, value: unknown): TaskSupportSetting {
  if (!isRecord(value)) return supportOf(fail, where, value);
  const out: Record<string, TaskSupport> = {};
  for (const [tool, support] of Object.entries(value))
    out[tool] = supportOf(fail, `${where}.${tool}`, support);
  return out;
}

/** The task support `setting` gives tool `tool` (undefined: the tool's own, i.e. none). */
export function taskSupportFor(
  setting: TaskSupportSetting | undefined,
  tool: string,
): TaskSupport | undefined {
  if (setting === undefined || typeof setting === 'string') return setting;
  return setting[tool] ?? setting['*'];
}

/** Tool names a per-tool setting gives that are not among `tools` (`"*"` aside). */
export function unknownTools(setting: TaskSupportSetting | undefined, tools: readonly string[]): string[] {
  if (setting === undefined || typeof setting === 'string') return [];
  return Object.keys(setting).filter((name) => name !== '*' && !tools.includes(name));
}

/** `mcp.tools_modules`: paths, or mappings with `path` and `task_support`. */
export function parseToolsModules(fail: Fail, file: string, value: unknown): ToolsModuleEntry[] {
  if (!Array.isArray(value)) throw fail('mcp.tools_modules must be a list');
  return value.map((raw, i) => {
    const where = `mcp.tools_modules[${i}]`;
    const entry = typeof raw === 'string' ? { path: raw } : raw;
    if (!isRecord(entry)) throw fail(`${where} must be a path string or a mapping with "path"`);
    for (const key of Object.keys(entry)) {
      if (key !== 'path' && key !== 'task_support') {
        throw fail(`${where} has an unknown key "${key}"${didYouMean(key, ['path', 'task_support'])}`);
      }
    }
    if (typeof entry.path !== 'string' || entry.path.trim() === '') {
      throw fail(`${where}.path must be a non-empty path string`);
    }
    const path = isAbsolute(entry.path) ? entry.path : resolve(dirname(file), entry.path);
    return entry.task_support === undefined
      ? { path }
      : { path, taskSupport: parseTaskSupport(fail, `${where}.task_support`, entry.task_support) };
  });
}

/** `mcp.tasks`: positive integers under the keys above. */
export function parseTaskLimits(fail: Fail, value: unknown): TaskLimits {
  if (!isRecord(value)) throw fail('mcp.tasks must be a mapping');
  const out: Record<string, number> = {};
  for (const [key, raw] of Object.entries(value)) {
    const name = LIMIT_KEYS[key];
    if (name === undefined) {
      const known = Object.keys(LIMIT_KEYS);
      throw fail(
        `mcp.tasks has an unknown key "${key}"${didYouMean(key, known)} (known: ${known.join(', ')})`,
      );
    }
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw <= 0) {
      throw fail(`mcp.tasks.${key} must be a positive integer, got ${JSON.stringify(raw)}`);
    }
    out[name] = raw;
  }
  return out as TaskLimits;
}
