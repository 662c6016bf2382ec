// Merges the command line and the config file into one serve plan.
import { type ServeArgs, type ServeTransport, UsageError } from './args.js';
import { checkContextHeaders } from './context-headers.js';
import { TABLE_READ, type TableSettings } from './option-uses.js';
import { sandboxOf } from './sandbox.js';
import type { TaskLimits, TaskSupportSetting } from './tasks.js';
import type { ClientLimitsConfig, PluginEntry, ServeFileConfig } from './types.js';

/**
 * How long a stopping HTTP server lets calls and tasks in flight finish: enough for most tool calls, and
 * well within the 30 s an orchestrator usually waits after SIGTERM before it kills.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/**
 * Everything `serve` will do, merged from the command line and the config file. The option table's settings
 * (`TableSettings`) are merged as each row says: the flag wins, the two lists are joined, or either switch counts.
 */
export interface ServePlan extends TableSettings {
  /** Config plugins first, then `--plugin` ones; each with its isolation and timeout settled. */
  readonly plugins: readonly PluginEntry[];
  /** Handed to every plugin through set_working_dir. */
  readonly root: string;
  readonly transport: ServeTransport;
  /** JavaScript tools modules to register beside the plugins (absolute paths): the config's, then `--tools-module`. */
  readonly toolsModules: readonly string[];
  /** The `task_support` of config-listed tools modules, by path. */
  readonly toolsModuleTasks: ReadonlyMap<string, TaskSupportSetting>;
  /** `mcp.tasks`. */
  readonly tasks: TaskLimits;
  /** `mcp.node_timeout_ms`: with Redis, how long a silent process is still taken for running. */
  readonly nodeTimeoutMs?: number;
  readonly keepGoing: boolean;
  /**
   * Request headers plugins with the plugin context may read (lower case): `mcp.context_headers`, then
   * `--context-header`. Those carrying credentials only with `contextHeadersAllowCredentials`.
   */
  readonly contextHeaders: readonly string[];
  /** `--context-header-allow-credentials`, else `mcp.context_headers_allow_credentials`. */
  readonly contextHeadersAllowCredentials: boolean;
  /** The drain on SIGTERM/SIGINT (`--drain-timeout`, else `mcp.drain_timeout_ms`, else 10 s). */
  readonly drainTimeoutMs: number;
  /** MRTR sealing key: `mcp.request_state_key`, else ENTROPIC_MCP_STATE_KEY (set for workers). */
  readonly requestStateKey?: string;
  /** Processes sharing the port (`--workers`, default 1). */
  readonly workers: number;
  /** Per-client limits: each flag wins over its `mcp.` key. */
  readonly limits: ClientLimitsConfig;
}

/**
 * Precedence, most specific first: a config entry's own `isolation`/`timeout_ms`/`instances`, then
 * `--isolation` / `--timeout` / `--instances`, then the config's `mcp.server_timeout_seconds`, then the loader's defaults. The root is
 * `--root`, else the config's `mcp.working_dir`, else `cwd`. Every plugin's log limit is `--plugin-log-limit`, else
 * `mcp.plugin_log_limit`, else the loader's default; so is the answer cap (an entry's `max_answer_bytes`,
 * then `--max-answer-bytes`, then `mcp.max_answer_bytes`). Context headers that carry credentials are refused here
 * (a UsageError) unless allowed. A plugin's sandbox is its entry's, else `--sandbox`.
 */
export function resolveServePlan(args: ServeArgs, file: ServeFileConfig | undefined, cwd: string): ServePlan {
  const table = mergeTable(args, file);
  const timeoutMs = args.timeoutMs ?? file?.timeoutMs;
  const logLimit = table.pluginLogLimit;
  const withDefaults = ({ sandbox: own, ...entry }: PluginEntry): PluginEntry => {
    const isolation = entry.isolation ?? args.isolation;
    const timeout = entry.timeoutMs ?? timeoutMs;
    const instances = entry.instances ?? args.instances;
    const maxAnswerBytes = entry.maxAnswerBytes ?? table.maxAnswerBytes;
    let sandbox: PluginEntry['sandbox'];
    try {
      sandbox = sandboxOf(own, args.sandbox, args.sandboxAudit ?? false, isolation, entry.path);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    return {
      ...entry,
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(logLimit === undefined ? {} : { logLimit }),
      ...(instances === undefined ? {} : { instances }),
      ...(maxAnswerBytes === undefined ? {} : { maxAnswerBytes }),
      ...(isolation === undefined ? {} : { isolation }),
      ...(timeout === undefined ? {} : { timeoutMs: timeout }),
    };
  };
  const entries = [...(file?.plugins ?? []), ...args.plugins.map((path) => ({ path }))];
  const contextHeadersAllowCredentials = table.contextHeadersAllowCredentials === true;
  checkContextHeaders({
    flags: args.contextHeaders,
    ...(file?.contextHeaders === undefined
      ? {}
      : { file: { path: file.file, headers: file.contextHeaders } }),
    allowCredentials: contextHeadersAllowCredentials,
  });
  return {
    ...table,
    plugins: entries.map(withDefaults),
    root: args.root ?? file?.root ?? cwd,
    transport: args.transport,
    toolsModules: [...(file?.toolsModules ?? []).map((m) => m.path), ...args.toolsModules],
    toolsModuleTasks: new Map(
      (file?.toolsModules ?? []).flatMap((m) =>
        m.taskSupport === undefined ? [] : [[m.path, m.taskSupport] as const],
      ),
    ),
    tasks: file?.tasks ?? {},
    ...optional('nodeTimeoutMs', file?.nodeTimeoutMs),
    keepGoing: args.keepGoing,
    contextHeaders: [...new Set([...(file?.contextHeaders ?? []), ...args.contextHeaders])],
    contextHeadersAllowCredentials,
    workers: args.workers ?? 1,
    drainTimeoutMs: args.drainTimeoutMs ?? file?.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
    limits: { ...file?.limits, ...args.limits },
    ...optional('requestStateKey', file?.requestStateKey ?? process.env.ENTROPIC_MCP_STATE_KEY),
  };
}

/** The option table's settings of the plan: per row, the flag wins, the lists are joined or either switch counts. */
function mergeTable(args: ServeArgs, file: ServeFileConfig | undefined): TableSettings {
  const out: Record<string, unknown> = {};
  for (const row of TABLE_READ) {
    const setting = row.setting as keyof TableSettings;
    const flag: unknown = args[setting];
    const fromFile: unknown = file?.[setting];
    let value: unknown;
    if (row.merge === 'join') {
      const lists = [fromFile, flag].filter((list): list is unknown[] => Array.isArray(list));
      value = lists.length === 0 ? undefined : [...new Set(lists.flat())];
    } else if (row.merge === 'either') value = flag === true || fromFile === true;
    else value = flag ?? fromFile;
    if (value !== undefined) out[row.setting] = value;
  }
  return out as TableSettings;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
