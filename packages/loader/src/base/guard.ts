/**
 * The one call guard of both hosting modes: it arms a call's time limit and cancellation, and it words every
 * refusal a call or a load can meet (timeout, cancellation, closed plugin, dropped call, version mismatch), so
 * `isolation: 'process'` and `'none'` say the same thing by construction.
 */
import { apiVersion } from './abi.js';
import { describePlugin, HOST_ERROR_CODES, PluginError } from './errors.js';

export type StopCode = 'ENTROPIC_ERROR_TIMEOUT' | 'ENTROPIC_ERROR_CANCELLED';

/** Learns of a cancellation without an AbortSignal: `onAbort` calls the hook once if the call is abandoned. */
export interface CancelHook {
  onAbort(hook: () => void): void;
}

/** A call's limits after checking: a time limit (0: none) and up to two ways to cancel it. */
export interface CallLimits {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly cancel?: CancelHook | undefined;
}

/** Where a refusal happened, as the messages name it. */
export interface CallSite {
  readonly path: string;
  readonly plugin: string | undefined;
  readonly tool: string | undefined;
}

/** The site of a call on a plugin whose name may not be known yet (empty before load). */
export function callSite(path: string, name: string, tool: string | undefined): CallSite {
  return { path, plugin: name === '' ? undefined : name, tool };
}

/** Why a call stopped early, worded once for both modes. */
export const STOPPED = {
  cancelledEarly: 'was cancelled before it started',
  cancelled: 'was cancelled',
  dropped: 'was dropped: the instance was shut down',
  timeout: (ms: number) => `did not answer within ${ms} ms`,
} as const;

function what(tool: string | undefined): string {
  return tool === undefined ? 'a call' : `execute of tool "${tool}"`;
}

function details(site: CallSite) {
  return { path: site.path, plugin: site.plugin, tool: site.tool };
}

/** A call stopped by its time limit or its cancellation. */
export function stoppedError(site: CallSite, code: StopCode, why: string): PluginError {
  return new PluginError(
    code,
    `${describePlugin(site.path, site.plugin)}: ${what(site.tool)} ${why}`,
    details(site),
  );
}

/** A call made after `close()`. */
export function closedError(site: CallSite): PluginError {
  const message = `${describePlugin(site.path, site.plugin)} is closed; ${what(site.tool)} came after close()`;
  return new PluginError(HOST_ERROR_CODES.closed, message, details(site));
}

/** Loading did not finish within the load-time limit. */
export function loadTimeoutError(path: string, ms: number): PluginError {
  return new PluginError(
    'ENTROPIC_ERROR_TIMEOUT',
    `${describePlugin(path)} did not finish loading within ${ms} ms`,
    { path },
  );
}

const VERSION_MISMATCH = 'ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH';

/**
 * Words a load refusal. Both native sides report a version mismatch with the plugin's API version alone (the
 * digits as the message); the sentence is built here. Every other refusal passes through unchanged.
 */
export function loadRefusal(error: unknown, path: string): unknown {
  if (!(error instanceof PluginError) || error.code !== VERSION_MISMATCH) return error;
  if (!/^-?\d+$/.test(error.message)) return error;
  const loader = apiVersion();
  return new PluginError(
    VERSION_MISMATCH,
    `${describePlugin(path)} was built for plugin API version ${error.message} but this loader speaks version ` +
      `${loader}; rebuild it against the headers of API version ${loader} (entropic-abi-headers --include-dir)`,
    { path },
  );
}

/** True when the call is cancelled before it was made: refuse it with `STOPPED.cancelledEarly`. */
export function cancelledAlready(limits: CallLimits): boolean {
  return limits.signal?.aborted === true;
}

/**
 * Arms a call's time limit and cancellation. `stop` runs at most once per source and must do nothing for a call
 * already settled. Returns what disarms them once the call settled, or undefined when nothing needs disarming
 * (no timer and no signal: a cancel hook lives and dies with its request).
 */
export function armCall(
  limits: CallLimits,
  stop: (code: StopCode, why: string) => void,
): (() => void) | undefined {
  const { timeoutMs, signal, cancel } = limits;
  if (cancel !== undefined) cancel.onAbort(() => stop('ENTROPIC_ERROR_CANCELLED', STOPPED.cancelled));
  if (timeoutMs <= 0 && signal === undefined) return undefined;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => stop('ENTROPIC_ERROR_TIMEOUT', STOPPED.timeout(timeoutMs)), timeoutMs)
      : undefined;
  const onAbort =
    signal === undefined ? undefined : () => stop('ENTROPIC_ERROR_CANCELLED', STOPPED.cancelled);
  if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  };
}
