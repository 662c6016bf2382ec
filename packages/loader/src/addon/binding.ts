/**
 * Finds and loads the in-process addon (`entropic_loader.node`) once per process, and hands it the
 * `PluginError` class so native failures are real instances of it.
 *
 * Where it looks: the file named by `ENTROPIC_LOADER_ADDON` (an explicit path), else where
 * `../native-files.ts` says (the local build, then the matching prebuild, by node-gyp-build's rules).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { buildAdvice, platformLabel, resolveAddon } from './native-files.js';

/** One plugin instance on its own thread, speaking the plugin wire (see `native/addon/native_plugin.h`). */
export interface NativePlugin {
  /** Queues a burst of wire requests, in order; false once the instance is closing. */
  submit(text: string): boolean;
  cancel(id: number): boolean;
  /** The answer frames finished now, as `onAnswers` would get them, spinning up to `spinMicros` for the first. */
  collect(spinMicros: number): Buffer | undefined;
  executeSync(tool: string, argsJson: string): string | null;
  ref(): void;
  unref(): void;
  /** Drops queued requests, destroys the instance and unloads it now, and lets its thread go. */
  shutdown(): void;
}

export interface Addon {
  readonly NativePlugin: new (path: string, onAnswers: (frames: Buffer) => void) => NativePlugin;
  readonly apiVersion: number;
  setErrorClass(errorClass: typeof PluginError): void;
  /** Moves the protocol off fds 0 and 1 (once per process); see `native/addon/addon.cc`. */
  protectStdio(): { readonly input: number; readonly output: number };
  /** Reads a pipe for up to `micros` with the core yielded between looks; bytes read, 0 none, -1 end/error. */
  spinRead(fd: number, buffer: Buffer, micros: number): number;
  /**
   * fd 2 (and fd 1 once `protectStdio` pointed it at fd 2) writes where `fd` does; returns a close-on-exec copy of
   * what fd 2 was. Absent from addons built before it.
   */
  readonly moveStderr?: (fd: number) => number;
  /** A new pipe, both ends close-on-exec; absent from addons built before it. */
  readonly pipe?: () => { readonly read: number; readonly write: number };
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

let missing = false;

/**
 * The addon when this process can load it, else undefined, without an error: for the isolated mode, which
 * borrows from it (real pipes, `spinRead`) but works without it. A failed load is not tried again.
 */
export function optionalAddon(): Addon | undefined {
  if (addon !== undefined || missing) return addon;
  try {
    return loadAddon('');
  } catch {
    missing = true;
    return undefined;
  }
}
