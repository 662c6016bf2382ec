/**
 * The errors of this package. Each is a `LoaderError` whose string `code` names it and stays the same across
 * releases (match on it, never on the message). Errors a plugin (or its host) can cause are `PluginError`s
 * told apart by `code`:
 *
 * - A contract code, the `entropic_error_t` name from the generated tables, with its number in
 *   `errno`/`value`: `ENTROPIC_ERROR_PLUGIN_LOAD_FAILED` and `ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH` at load,
 *   whatever `configure`/`set_working_dir` returned, `ENTROPIC_ERROR_TIMEOUT` when a call ran past its time
 *   limit, `ENTROPIC_ERROR_CANCELLED` when its AbortSignal fired.
 * - A host code (no number, `errno` is undefined), for failures the contract has no name for:
 *   `ENTROPIC_PLUGIN_CRASHED` (the host process died: `signal` or `exitCode` says how),
 *   `ENTROPIC_PLUGIN_BAD_ANSWER` (list_tools/execute returned something the contract does not allow),
 *   `ENTROPIC_PLUGIN_CLOSED` (a call after `close()`), `ENTROPIC_HOST_UNAVAILABLE` (the host executable or
 *   the in-process addon could not be found or started, or its channel broke), `ENTROPIC_SANDBOX_UNAVAILABLE`
 *   (the plugin's OS sandbox asks for a part this system lacks, and is required).
 *
 * Wrong argument types are plain `TypeError`s thrown before any native code runs.
 */
import { errorName, errorValue } from './abi.js';

export const HOST_ERROR_CODES = {
  crashed: 'ENTROPIC_PLUGIN_CRASHED',
  badAnswer: 'ENTROPIC_PLUGIN_BAD_ANSWER',
  closed: 'ENTROPIC_PLUGIN_CLOSED',
  unavailable: 'ENTROPIC_HOST_UNAVAILABLE',
  sandbox: 'ENTROPIC_SANDBOX_UNAVAILABLE',
} as const;

export type HostErrorCode = (typeof HOST_ERROR_CODES)[keyof typeof HOST_ERROR_CODES];

export interface PluginErrorDetails {
  /** Absolute path of the plugin `.so`. */
  readonly path?: string;
  /** The plugin's name, when it was read. */
  readonly plugin?: string;
  /** The tool a failed `execute` was calling. */
  readonly tool?: string;
  /** Isolated mode: the signal that ended the host process (`SIGSEGV`, `SIGABRT`, `SIGKILL`...). */
  readonly signal?: string;
  /** Isolated mode: the exit status of a host process that exited on its own. */
  readonly exitCode?: number;
  /** Isolated mode: the last lines the host (and the plugin) wrote to stderr before it died. */
  readonly stderr?: string;
  /** The numeric value, when it is not the one the code name maps to (an out-of-range value). */
  readonly errno?: number;
  readonly cause?: unknown;
}

/**
 * The base of every error this package throws on purpose (`PluginError`, `ToolCollisionError`,
 * `ToolRegistrationError`). `code` says which error it is and is stable.
 */
export class LoaderError<C extends string = string> extends Error {
  override readonly name: string = 'LoaderError';
  readonly code: C;

  constructor(code: C, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export class PluginError extends LoaderError {
  override readonly name: string = 'PluginError';
  /** The `entropic_error_t` value of a contract code; undefined for host codes. */
  readonly errno: number | undefined;
  readonly path: string | undefined;
  readonly plugin: string | undefined;
  readonly tool: string | undefined;
  readonly signal: string | undefined;
  readonly exitCode: number | undefined;
  readonly stderr: string | undefined;

  constructor(code: string, message: string, details: PluginErrorDetails = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.errno = details.errno ?? errorValue(code);
    this.path = details.path;
    this.plugin = details.plugin;
    this.tool = details.tool;
    this.signal = details.signal;
    this.exitCode = details.exitCode;
    this.stderr = details.stderr;
  }

  /** Same as `errno`: the numeric `entropic_error_t` value, when the code is a contract one. */
  get value(): number | undefined {
    return this.errno;
  }

  /** An error for a numeric `entropic_error_t` returned by the plugin (configure, set_working_dir). */
  static fromValue(value: number, message: string, details: PluginErrorDetails = {}): PluginError {
    return new PluginError(errorName(value), message, { ...details, errno: value });
  }
}

/** Prefix used in messages: `plugin "echo" (/abs/echo.so)` or just the path before the name is known. */
export function describePlugin(path: string, name?: string): string {
  return name === undefined ? `plugin ${path}` : `plugin "${name}" (${path})`;
}
