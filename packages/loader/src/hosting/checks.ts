/**
 * Argument checks shared by both hosting modes. Each throws a `TypeError` naming the bad argument, before any
 * native code or child process is involved.
 */
import { isAbsolute, resolve } from 'node:path';
import { SecretMasker } from '@entropic-mcp/server';
import type { CallLimits } from '../base/guard.js';
import type { CallOptions, Isolation, LoadOptions } from '../base/types.js';
import { type CheckedSandbox, checkSandboxOptions } from '../sandbox/options.js';
import type { SandboxPlan } from '../sandbox/plan.js';

const ISOLATIONS: readonly Isolation[] = ['process', 'none'];
/** More instances than this is a typo, not a plan (each is a process or a thread). */
export const MAX_INSTANCES = 256;

/** Load options after checking, in the form both hosting modes receive them. */
export interface ResolvedLoadOptions {
  readonly isolation: Isolation;
  /** `config` serialised to JSON text, or undefined when none was given. */
  readonly configJson: string | undefined;
  /** Absolute working directory, or undefined when none was given. */
  readonly workingDir: string | undefined;
  /** Default per-call limit in ms; 0 means none. */
  readonly timeoutMs: number;
  readonly memoryLimitMb: number | undefined;
  readonly hostPath: string | undefined;
  readonly onStderr: ((text: string) => void) | undefined;
  /** Masks credentials in a host's stderr (isolated mode). */
  readonly masker: Pick<SecretMasker, 'stream'>;
  /** Instances to run, 1 or more. */
  readonly instances: number;
  /** How long a cancelled call of a plugin with the plugin context gets to return before its host is killed. */
  readonly cancelGraceMs: number;
  /** Log messages one call of a plugin with the plugin context may send a second (0: no limit). */
  readonly logLimit: number;
  /** The longest `execute` answer taken, in bytes (0: no limit). */
  readonly maxAnswerBytes: number;
  /** The OS sandbox asked for (isolated mode only). */
  readonly sandbox: CheckedSandbox | undefined;
  /** How that sandbox is enforced here, decided once per `loadPlugin` (sandbox/prepare.ts). */
  readonly sandboxPlan?: SandboxPlan;
}

/** Log messages one call may send through its plugin context in a second, unless `logLimit` says otherwise. */
export const DEFAULT_LOG_LIMIT = 100;

/** The longest `execute` answer a plugin may give unless `maxAnswerBytes` says otherwise: 16 MiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The grace a running call of a plugin with the plugin context gets after a cancellation (isolated mode). */
export const DEFAULT_CANCEL_GRACE_MS = 2000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkPluginPath(path: unknown): string {
  if (typeof path !== 'string' || path === '') throw new TypeError('plugin path must be a non-empty string');
  if (path.includes('\0')) throw new TypeError('plugin path must not contain a NUL character');
  if (!isAbsolute(path)) throw new TypeError(`plugin path must be absolute, got the relative path "${path}"`);
  return path;
}

export function checkTimeout(value: unknown, what: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${what} must be a finite number of milliseconds >= 0, got ${String(value)}`);
  }
  return value;
}

/** JSON text of a configuration value (any JSON-serialisable value). */
export function configToJson(config: unknown, what = 'config'): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(config);
  } catch (error) {
    throw new TypeError(`${what} must be JSON-serialisable: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`${what} must be JSON-serialisable, got ${typeof config}`);
  return text;
}

export function checkDirectory(path: unknown, what: string): string {
  if (typeof path !== 'string' || path === '') throw new TypeError(`${what} must be a non-empty string`);
  if (path.includes('\0')) throw new TypeError(`${what} must not contain a NUL character`);
  return resolve(path);
}

export function checkToolName(tool: unknown): string {
  if (typeof tool !== 'string' || tool === '') throw new TypeError('tool name must be a non-empty string');
  if (tool.includes('\0')) throw new TypeError('tool name must not contain a NUL character');
  return tool;
}

/** Tool arguments as JSON text: an object (or undefined, read as `{}`), or a string already holding JSON. */
export function argsToJson(args: unknown): string {
  if (args === undefined) return '{}';
  if (typeof args === 'string') {
    try {
      JSON.parse(args);
    } catch {
      throw new TypeError('tool arguments given as a string must be JSON text');
    }
    if (args.includes('\0')) throw new TypeError('tool arguments must not contain a NUL character');
    return args;
  }
  if (!isPlainObject(args)) throw new TypeError('tool arguments must be an object or a JSON string');
  return configToJson(args, 'tool arguments');
}

/** A call's options after checking; `undefined` options give the default limits object itself. */
export function checkCallOptions(options: unknown, defaults: CallLimits): CallLimits {
  if (options === undefined) return defaults;
  if (!isPlainObject(options)) throw new TypeError('call options must be an object');
  const { signal, timeoutMs, cancel } = options as CallOptions;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('options.signal must be an AbortSignal');
  }
  if (cancel !== undefined && typeof (cancel as { onAbort?: unknown } | null)?.onAbort !== 'function') {
    throw new TypeError('options.cancel must be an object with an onAbort(hook) method');
  }
  const limit = timeoutMs === undefined ? defaults.timeoutMs : checkTimeout(timeoutMs, 'options.timeoutMs');
  if (signal === undefined && cancel === undefined && limit === defaults.timeoutMs) return defaults;
  return { timeoutMs: limit, signal, cancel };
}

export function checkLoadOptions(options: unknown): ResolvedLoadOptions {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) throw new TypeError('load options must be an object');
  const o = options as LoadOptions;
  const isolation = o.isolation ?? 'process';
  if (!ISOLATIONS.includes(isolation)) {
    throw new TypeError(
      `options.isolation must be one of ${ISOLATIONS.join(', ')}, got ${String(isolation)}`,
    );
  }
  const { memoryLimitMb, hostPath, onStderr, masker } = o;
  if (memoryLimitMb !== undefined && (!Number.isInteger(memoryLimitMb) || memoryLimitMb <= 0)) {
    throw new TypeError(`options.memoryLimitMb must be a positive integer, got ${String(memoryLimitMb)}`);
  }
  if (hostPath !== undefined) checkPluginPath(hostPath);
  if (onStderr !== undefined && typeof onStderr !== 'function') {
    throw new TypeError('options.onStderr must be a function');
  }
  if (masker !== undefined && typeof (masker as { stream?: unknown } | null)?.stream !== 'function') {
    throw new TypeError(
      'options.masker must have a stream() method (a SecretMasker of @entropic-mcp/server)',
    );
  }
  const logLimit = o.logLimit ?? DEFAULT_LOG_LIMIT;
  if (!Number.isSafeInteger(logLimit) || logLimit < 0) {
    throw new TypeError(`options.logLimit must be a whole number (0: no limit), got ${String(logLimit)}`);
  }
  const maxAnswerBytes = o.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  if (!Number.isSafeInteger(maxAnswerBytes) || maxAnswerBytes < 0) {
    throw new TypeError(
      `options.maxAnswerBytes must be a whole number of bytes (0: no limit), got ${String(maxAnswerBytes)}`,
    );
  }
  const sandbox = o.sandbox === undefined ? undefined : checkSandboxOptions(o.sandbox);
  if (sandbox !== undefined && isolation === 'none') {
    throw new TypeError(
      "options.sandbox needs isolation 'process': the in-process mode runs the plugin inside this process, " +
        'which no OS sandbox can confine',
    );
  }
  if (sandbox?.memoryMb !== undefined && memoryLimitMb !== undefined && sandbox.memoryMb !== memoryLimitMb) {
    throw new TypeError(
      'options.memoryLimitMb and options.sandbox.memoryMb set the same limit; give one of them',
    );
  }
  const instances = o.instances ?? 1;
  if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES) {
    throw new TypeError(
      `options.instances must be a whole number from 1 to ${MAX_INSTANCES}, got ${String(instances)}`,
    );
  }
  return {
    isolation,
    instances,
    configJson: o.config === undefined ? undefined : configToJson(o.config, 'options.config'),
    workingDir: o.workingDir === undefined ? undefined : checkDirectory(o.workingDir, 'options.workingDir'),
    timeoutMs: checkTimeout(o.timeoutMs, 'options.timeoutMs'),
    memoryLimitMb,
    hostPath,
    onStderr,
    masker: masker ?? new SecretMasker(),
    logLimit,
    maxAnswerBytes,
    sandbox,
    cancelGraceMs:
      o.cancelGraceMs === undefined
        ? DEFAULT_CANCEL_GRACE_MS
        : checkTimeout(o.cancelGraceMs, 'options.cancelGraceMs'),
  };
}

/** The plugin-context parts of a call's options (`voice`, `caller`), checked; both undefined without options. */
export function checkContextOptions(options: CallOptions | undefined): Pick<CallOptions, 'voice' | 'caller'> {
  if (options === undefined) return {};
  const { voice, caller } = options;
  if (voice !== undefined && !isPlainObject(voice)) throw new TypeError('options.voice must be an object');
  if (caller !== undefined && !isPlainObject(caller)) throw new TypeError('options.caller must be an object');
  return { voice, caller };
}
