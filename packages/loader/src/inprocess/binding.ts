/**
 * Finds and loads the in-process addon (`entropic_loader.node`) once per process, and hands it the
 * `PluginError` class so native failures are real instances of it.
 *
 * Where it looks: the file named by `ENTROPIC_LOADER_ADDON` (an explicit path), else where
 * `../native-files.ts` says (the local build, then the matching prebuild, by node-gyp-build's rules).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { HOST_ERROR_CODES, PluginError } from '../errors.js';
import { buildAdvice, platformLabel, resolveAddon } from '../native-files.js';

/** Job kinds, as `native/addon/plugin_instance.h` numbers them. */
export const JobKind = {
  load: 0,
  listTools: 1,
  execute: 2,
  configure: 3,
  setWorkingDir: 4,
  destroy: 5,
} as const;
export type JobKind = (typeof JobKind)[keyof typeof JobKind];

/** One plugin instance on its own thread (see `native/addon/native_plugin.h`). */
export interface NativePlugin {
  /** Queues jobs in order: (id, kind) pairs, and each job's two strings NUL-ended; false once closing. */
  submit(heads: Uint32Array, text: string): boolean;
  cancel(id: number): boolean;
  /** The finished jobs now, as `onBatch` would get them, spinning up to `spinMicros` for the first one. */
  collect(spinMicros: number): unknown[] | undefined;
  executeSync(tool: string, argsJson: string): string | null;
  ref(): void;
  unref(): void;
  /** Drops queued jobs, destroys the instance and unloads it now (at process exit). */
  shutdown(): void;
}

export interface Addon {
  readonly NativePlugin: new (path: string, onBatch: (list: unknown[]) => void) => NativePlugin;
  readonly apiVersion: number;
  setErrorClass(errorClass: typeof PluginError): void;
  /** Moves the protocol off fds 0 and 1 (once per process); see `native/addon/addon.cc`. */
  protectStdio(): { readonly input: number; readonly output: number };
  /** Reads a pipe for up to `micros` with the core yielded between looks; bytes read, 0 none, -1 end/error. */
  spinRead(fd: number, buffer: Buffer, micros: number): number;
}

const require = createRequire(import.meta.url);
let addon: Addon | undefined;

function locate(): string {
  const explicit = process.env.ENTROPIC_LOADER_ADDON;
  if (explicit !== undefined && explicit !== '') {
    if (!existsSync(explicit))
      throw new Error(`ENTROPIC_LOADER_ADDON names ${explicit}, which does not exist`);
    return explicit;
  }
  return resolveAddon();
}

/** The addon, loaded on first use. Throws `ENTROPIC_HOST_UNAVAILABLE` when no build of it exists. */
export function loadAddon(pluginPath: string): Addon {
  if (addon !== undefined) return addon;
  let file: string;
  try {
    file = locate();
  } catch (cause) {
    throw new PluginError(
      HOST_ERROR_CODES.unavailable,
      `the in-process addon for ${platformLabel()} was not found (${(cause as Error).message.trim()}); ` +
        `${buildAdvice()}; or use isolation: "process"`,
      { path: pluginPath, cause },
    );
  }
  let loaded: Addon;
  try {
    loaded = require(file) as Addon;
  } catch (cause) {
    throw new PluginError(
      HOST_ERROR_CODES.unavailable,
      `the in-process addon ${file} cannot be loaded: ${String(cause)}`,
      {
        path: pluginPath,
        cause,
      },
    );
  }
  loaded.setErrorClass(PluginError);
  addon = loaded;
  return loaded;
}
