/**
 * The TypeScript surface of a loaded plugin, the same whichever way it is hosted
 * (`isolation: 'process'`, the default, or `isolation: 'none'` for the in-process addon).
 */

import type { SecretMasker } from '@entropic-mcp/server';
import type { LogLevelName } from './abi.js';
import type { CancelHook } from './guard.js';

export type Isolation = 'process' | 'none';

export interface LoadOptions {
  /** How the plugin is hosted. Default `'process'`: its own host process, a crash cannot reach Node. */
  readonly isolation?: Isolation;
  /** JSON handed to `entropic_mcp_server_configure` after create (and replayed after a host restart). */
  readonly config?: unknown;
  /** Directory handed to `entropic_mcp_server_set_working_dir` after load (replayed after a restart). */
  readonly workingDir?: string;
  /** Default per-call time limit in milliseconds (0 or undefined: none). Isolated mode kills a hung host. */
  readonly timeoutMs?: number;
  /** Isolated mode only: RLIMIT_AS for the host process, in MiB. */
  readonly memoryLimitMb?: number;
  /** Isolated mode only: the host executable to use (else `ENTROPIC_PLUGIN_HOST`, a prebuild, the local build). */
  readonly hostPath?: string;
  /**
   * Isolated mode only: receives what the host and the plugin write to stderr (the plugin's stdout lands there
   * too). Default: copied to this process's stderr.
   */
  readonly onStderr?: (text: string) => void;
  /**
   * Isolated mode only: masks credentials in what the host and the plugin write to stderr, before `onStderr` (or
   * this process's stderr) gets it and before a crash message quotes its tail (`SecretMasker` of
   * `@entropic-mcp/server`; register the tokens and keys you hold with its `add`, at any time). Default: a masker
   * of the known shapes of credentials alone (JWTs, `Bearer`, `Authorization:` lines, `password=`…).
   */
  readonly masker?: Pick<SecretMasker, 'stream'>;
  /**
   * How many instances of the plugin to run (default 1), each loaded on its own: its own host process, or its
   * own thread in-process. Calls go to the least busy one. Instances share no state, so a plugin that keeps
   * state across calls should stay at 1.
   */
  readonly instances?: number;
  /**
   * For a plugin with the plugin context: how long a cancelled or timed-out call that is already running gets to
   * return after its context says so, before its host is killed (isolated mode; default 2000 ms). A plugin
   * without the context is killed at once, as it cannot learn of the cancellation.
   */
  readonly cancelGraceMs?: number;
  /**
   * For a plugin with the plugin context: the log messages one call may send a second (default 100; 0: no
   * limit), so a plugin logging in a tight loop cannot flood the client. The messages beyond are dropped, and one
   * warning (`{"dropped": N, "limit": L, "message": …}`) says how many, when the next second starts or just
   * before the answer.
   */
  readonly logLimit?: number;
}

/** A tool descriptor as the plugin's `list_tools` returned it, after validation. */
export interface PluginTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  /** The JSON Schema of the tool's structured result (plugin context), when the plugin declares one. */
  readonly outputSchema?: Record<string, unknown>;
}

/** One directive of the ServerResponse envelope. */
export interface PluginDirective {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** The validated ServerResponse envelope returned by `execute`. */
export interface PluginAnswer {
  readonly result: string;
  readonly directives: readonly PluginDirective[];
  /** The structured result the call attached through its plugin context (a JSON object), if any. */
  readonly structured?: Record<string, unknown>;
}

/**
 * Where what a running call says through its plugin context goes (only plugins that define
 * `entropic_mcp_server_execute_with_context` say anything). Called on this thread, in the order it was said,
 * before the call's answer.
 */
export interface CallVoice {
  /** A progress report: done so far, out of total when known, with an optional message. */
  progress?(done: number, total: number | undefined, message: string | undefined): void;
  /** A log message: its MCP level, its data (JSON value, or the text when it was not JSON), its logger. */
  log?(level: LogLevelName, data: unknown, logger: string | undefined): void;
}

/** Who is calling, as a plugin with the plugin context reads it (every field optional). */
export interface CallerInfo {
  /** The authenticated subject. */
  readonly subject?: string;
  /** The granted scopes (the plugin reads them joined by single spaces). */
  readonly scopes?: readonly string[];
  /** The MCP protocol revision of the request. */
  readonly protocolVersion?: string;
  /** The JSON-RPC id of the request. */
  readonly requestId?: string | number;
  /** Request headers the plugin may read, by lower-case name (pass only those the operator allows). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CallOptions {
  /** Aborting cancels the call; in isolated mode a call already inside the plugin kills and restarts the host. */
  readonly signal?: AbortSignal;
  /** Overrides the load-time `timeoutMs` for this call. */
  readonly timeoutMs?: number;
  /**
   * A cheaper way to cancel than `signal`: the plugin registers one hook through `cancel.onAbort(hook)`, and a
   * call to that hook cancels exactly as an aborted signal does. The server's request context is such an object.
   */
  readonly cancel?: CancelHook;
  /** Receives the call's progress reports and logs (plugin context). */
  readonly voice?: CallVoice;
  /** Who is calling (plugin context). */
  readonly caller?: CallerInfo;
}

/**
 * Where the outcome of one call goes: the promise-free way to call a plugin (`Plugin.call`). Exactly one of
 * the two is called, once, possibly before `call` returns (a refused call).
 */
export interface CallReply<T = unknown> {
  answered(value: T): void;
  failed(error: Error): void;
}

export interface Plugin {
  /** The plugin's name (its routing prefix), read once at load. */
  readonly name: string;
  readonly path: string;
  readonly apiVersion: number;
  readonly isolation: Isolation;
  /** How many instances serve the calls (`LoadOptions.instances`; 1 unless asked for more). */
  readonly instances: number;
  /**
   * True when the plugin defines `entropic_mcp_server_execute_with_context` (the plugin context): its calls get
   * a context, so `CallOptions.voice` and `caller` reach it and a cancellation is cooperative.
   */
  readonly usesContext: boolean;
  /** The tools `list_tools` returned at load, validated. */
  readonly tools: readonly PluginTool[];

  /** Calls made and not settled yet, queued or running (across every instance). */
  readonly pending: number;

  listTools(): Promise<PluginTool[]>;
  execute(tool: string, args: unknown, options?: CallOptions): Promise<PluginAnswer>;
  /**
   * `execute` without a promise: the answer (or the PluginError) goes to `reply`. Cheaper when answers come by
   * the thousand; the server bridge calls plugins this way.
   */
  call(tool: string, args: unknown, reply: CallReply<PluginAnswer>, options?: CallOptions): void;
  configure(config: unknown): Promise<void>;
  setWorkingDir(path: string): Promise<void>;
  /** Destroys the instance after every earlier call has finished, then unloads. Idempotent. */
  close(): Promise<void>;
}
