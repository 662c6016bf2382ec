// The task keys of a serve config: `task_support` of a plugin or tools module, `mcp.tools_modules`, `mcp.tasks`.
import type { TaskSupport } from '@entropic-mcp/server';
import { checkKeys, configPath, isRecord, type Path, positiveInt, type Source } from './source.js';

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
  readonly maxFinishedPerPrincipal?: number;
  readonly maxFinishedBytesPerPrincipal?: number;
  readonly defaultTtlMs?: number;
  readonly maxTtlMs?: number;
  readonly pollIntervalMs?: number;
  /** 2026-07-28: how long a call may run before it is answered with a task (0 allowed). */
  readonly syncWindowMs?: number;
}

const SUPPORT: readonly string[] = ['forbidden', 'optional', 'required'];
const LIMIT_KEYS: Record<string, keyof TaskLimits> = {
  max_per_principal: 'maxPerPrincipal',
  max_finished_per_principal: 'maxFinishedPerPrincipal',
  max_finished_bytes_per_principal: 'maxFinishedBytesPerPrincipal',
  default_ttl_ms: 'defaultTtlMs',
  max_ttl_ms: 'maxTtlMs',
  poll_interval_ms: 'pollIntervalMs',
  sync_window_ms: 'syncWindowMs',
};
/** Keys where 0 is meaningful. */
const ZERO_ALLOWED = new Set(['sync_window_ms']);
const MODULE_KEYS = ['path', 'task_support'];

function supportOf(source: Source, where: string, path: Path, value: unknown): TaskSupport {
  if (typeof value !== 'string' || !SUPPORT.includes(value)) {
    throw source.error(
      `${where} must be "forbidden", "optional" or "required", got ${JSON.stringify(value)}`,
      path,
    );
  }
  return value as TaskSupport;
}

/** `task_support: optional`, or `task_support: { "*": optional, build: required }`, at `path`. */
export function parseTaskSupport(
  source: Source,
  where: string,
  path: Path,
  value: unknown,
): TaskSupportSetting {
  if (!isRecord(value)) return supportOf(source, where, path, value);
  const out: Record<string, TaskSupport> = {};
  for (const [tool, support] of Object.entries(value))
    out[tool] = supportOf(source, `${where}.${tool}`, [...path, tool], support);
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
export function unknownTools(
  setting: TaskSupportSetting | Readonly<Record<string, unknown>> | readonly unknown[] | undefined,
  tools: readonly string[],
): string[] {
  if (setting === undefined || typeof setting === 'string' || Array.isArray(setting)) return [];
  return Object.keys(setting).filter((name) => name !== '*' && !tools.includes(name));
}

/** `mcp.tools_modules`: paths, or mappings with `path` and `task_support`. */
export function parseToolsModules(source: Source, value: unknown): ToolsModuleEntry[] {
  const at = ['mcp', 'tools_modules'];
  if (!Array.isArray(value)) throw source.error('mcp.tools_modules must be a list', at);
  return value.map((raw, i) => {
    const where = `mcp.tools_modules[${i}]`;
    const entryAt = [...at, i];
    if (typeof raw === 'string') return { path: configPath(source, where, entryAt, raw) };
    if (!isRecord(raw))
      throw source.error(`${where} must be a path string or a mapping with "path"`, entryAt);
    checkKeys(source, where, entryAt, raw, MODULE_KEYS);
    const path = configPath(
      source,
      `${where}.path`,
      raw.path === undefined ? entryAt : [...entryAt, 'path'],
      raw.path,
    );
    if (raw.task_support === undefined) return { path };
    const supportAt = [...entryAt, 'task_support'];
    return {
      path,
      taskSupport: parseTaskSupport(source, `${where}.task_support`, supportAt, raw.task_support),
    };
  });
}

/** `mcp.tasks`: positive integers under the keys above (`sync_window_ms` may be 0). */
export function parseTaskLimits(source: Source, value: unknown): TaskLimits {
  const at = ['mcp', 'tasks'];
  if (!isRecord(value)) throw source.error('mcp.tasks must be a mapping', at);
  checkKeys(source, 'mcp.tasks', at, value, Object.keys(LIMIT_KEYS));
  const out: Record<string, number> = {};
  for (const [key, raw] of Object.entries(value))
    out[LIMIT_KEYS[key] as string] =
      ZERO_ALLOWED.has(key) && raw === 0 ? 0 : positiveInt(source, `mcp.tasks.${key}`, [...at, key], raw);
  return out as TaskLimits;
}
