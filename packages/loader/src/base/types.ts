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
  /**
   * The longest answer one `execute` may give, in bytes of its JSON text (default 16 MiB; 0: no limit). A longer
   * one fails the call with `ENTROPIC_PLUGIN_BAD_ANSWER` naming its size and this option, before it is decoded,
   * so one huge answer cannot stall the other calls and clients while it is parsed and sent.
   */
  readonly maxAnswerBytes?: number;
  /**
   * Isolated mode only: the OS sandbox of the plugin's host process (Landlock, seccomp, rlimits; see
   * `SandboxOptions`). Off unless given; `{}` is the strictest. `isolation: 'none'` with a sandbox is refused.
   */
  readonly sandbox?: SandboxOptions;
}

/**
 * The OS sandbox of one isolated plugin, applied by its host after its own set-up and before the plugin library
 * is opened. Everything not listed is refused: files outside `read`/`write` (Landlock), TCP ports outside
 * `connect`/`bind` (Landlock), UDP, unix sockets that reach a path, starting programs, new processes, ptrace,
 * mount, namespaces, bpf, keyrings, kernel modules, reboot and the like (seccomp, EPERM), signals to processes
 * outside the sandbox (Landlock scopes), and raising its own limits. The host also sets `no_new_privs` and drops
 * every capability (root keeps its user id, not its privileges).
 */
export interface SandboxOptions {
  /** Absolute paths the plugin may read (folders: everything beneath). The plugin file and the system library
   * folders are always readable. */
  readonly read?: readonly string[];
  /** Absolute paths the plugin may read, write, create and delete in. */
  readonly write?: readonly string[];
  /** TCP ports the plugin may connect to, on any address (Landlock filters ports, not addresses). */
  readonly connect?: readonly number[];
  /** TCP ports the plugin may listen on. */
  readonly bind?: readonly number[];
  /** May use UDP, to any address and port (default false; name lookups through DNS need it). */
  readonly udp?: boolean;
  /** May start programs (execve), from its `read` paths (default false). */
  readonly exec?: boolean;
  /**
   * Threads and processes the plugin may run at once beyond the host's own. Absent (the default): new processes
   * are refused and threads are not counted. A number needs a pids cgroup (root, or a delegated cgroup) or, for a
   * server that is not root, a user namespace for RLIMIT_NPROC.
   */
  readonly processes?: number;
  /** Address-space limit of the host process, in MiB (the same limit as `memoryLimitMb`). */
  readonly memoryMb?: number;
  /** CPU seconds for the host process's lifetime; past them it dies (SIGXCPU) and is restarted for the next call. */
  readonly cpuSeconds?: number;
  /** Descriptors the plugin may open at once beyond the host's own. */
  readonly openFiles?: number;
  /**
   * Default true: a sandbox this system cannot fully enforce refuses to load the plugin, naming what is missing.
   * False: the plugin loads with the rest enforced, and one warning names what is not.
   */
  readonly required?: boolean;
  /**
   * Log the system calls the sandbox would refuse (to the host's stderr) instead of refusing them, to find what a
   * plugin needs. Landlock has no log-only mode, so file and network rules are off in audit mode; limits stay.
   */
  readonly audit?: boolean;
}

/** What a loaded plugin's sandbox enforces, for banners and `inspect`. */
export interface SandboxReport {
  /** The sandbox as asked for, in one line (`read /srv/data; write none; connect 5432; …`). */
  readonly summary: string;
  /** Each mechanism in force, with its kernel part (`filesystem rules (Landlock ABI 7)`, …). */
  readonly enforced: readonly string[];
  /** What this system could not enforce (only with `required: false`), or what audit mode leaves off. */
  readonly notEnforced: readonly string[];
  readonly audit: boolean;
}

/** What the OS sandbox can use on this system, as the plugin host found it (`sandboxSupport()`). */
export interface SandboxSupport {
  /** The Landlock ABI version (0: no Landlock). */
  readonly landlock: number;
  /** How the host writes its seccomp filter (`built-in BPF`, `libseccomp 2.5.4`), or null without seccomp. */
  readonly seccomp: string | null;
  /** seccomp user notifications, which audit mode needs. */
  readonly seccompAudit: boolean;
  /** The folder hosts make their pids cgroups in, or null when they cannot make one. */
  readonly pidsCgroup: string | null;
  /** A user namespace in which RLIMIT_NPROC counts the host alone (never for root). */
  readonly nproc: boolean;
  /** A network namespace (the network rule when Landlock has no TCP rules). */
  readonly netns: boolean;
  readonly root: boolean;
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
  /** What its OS sandbox enforces (isolated mode with `sandbox`); undefined without one. */
  readonly sandbox?: SandboxReport;

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
