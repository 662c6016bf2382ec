// Types of a serve config file and its plugin entries.
import type { Isolation, SandboxOptions } from '@entropic-mcp/loader';
import type { TableSettings } from './option-uses.js';
import type { ScopesSetting } from './scopes.js';
import type { TaskLimits, TaskSupportSetting, ToolsModuleEntry } from './tasks.js';

/** One plugin to serve, with every path already absolute. */
export interface PluginEntry {
  /** Absolute path of the plugin `.so`. */
  readonly path: string;
  /** JSON handed to `configure` after load (undefined: configure is not called). */
  readonly config?: unknown;
  /** Hosting mode for this plugin; overrides the global default. */
  readonly isolation?: Isolation;
  /** Per-call time limit in milliseconds; overrides the global default. */
  readonly timeoutMs?: number;
  /** Isolated mode only: address-space limit of the host process, in MiB. */
  readonly memoryLimitMb?: number;
  /** Instances of the plugin to run (default 1); calls go to the least busy. Instances share no state. */
  readonly instances?: number;
  /** Whether its tools run as tasks (`task_support`), for all of them or by the plugin's tool names. */
  readonly taskSupport?: TaskSupportSetting;
  /** Log messages one call may send a second: `--plugin-log-limit`, else `mcp.plugin_log_limit` (set by the plan). */
  readonly logLimit?: number;
  /** Its OS sandbox (`sandbox:`, else `--sandbox`); `false`: none, whatever `--sandbox` says (config only). */
  readonly sandbox?: SandboxOptions | false;
  /** The longest answer one call may give, in bytes (`max_answer_bytes`, else `--max-answer-bytes`; 0: no limit). */
  readonly maxAnswerBytes?: number;
  /** Scopes a caller must hold to see and call its tools (`scopes`): for all of them, or by tool name. */
  readonly scopes?: ScopesSetting;
}

/** Per-client limits of the HTTP transport (`--max-*-per-client`, `--trusted-proxy`, or `mcp.` keys). */
export interface ClientLimitsConfig {
  readonly maxSessionsPerClient?: number;
  readonly maxStreamsPerClient?: number;
  readonly maxConnectionsPerClient?: number;
  readonly trustedProxies?: readonly string[];
}

/** What a config file contributes to `entropic-mcp serve`; the option table's settings come from its rows. */
export interface ServeFileConfig extends TableSettings {
  /** The file it came from (absolute). */
  readonly file: string;
  readonly plugins: readonly PluginEntry[];
  /** `mcp.working_dir`, resolved against the file's folder (the engine's key). */
  readonly root?: string;
  /** `mcp.server_timeout_seconds` in milliseconds (the engine's key), a default for every plugin. */
  readonly timeoutMs?: number;
  /** `mcp.drain_timeout_ms`: on SIGTERM/SIGINT, how long calls and tasks in flight may finish. */
  readonly drainTimeoutMs?: number;
  /** `mcp.request_state_key`: the key sealing multi-round-trip state, the same on every process. */
  readonly requestStateKey?: string;
  /** `mcp.max_sessions_per_client`, `mcp.max_streams_per_client`, `mcp.max_connections_per_client`, `mcp.trusted_proxies`. */
  readonly limits: ClientLimitsConfig;
  /** `mcp.tools_modules`: tools modules to load before those of `--tools-module`. */
  readonly toolsModules?: readonly ToolsModuleEntry[];
  /** `mcp.tasks`: limits of tasks. */
  readonly tasks?: TaskLimits;
  /** `mcp.node_timeout_ms`: with Redis, how long a silent process is still taken for running. */
  readonly nodeTimeoutMs?: number;
  /** `mcp.context_headers`: request headers plugins with the plugin context may read (lower case). */
  readonly contextHeaders?: readonly string[];
}
