/**
 * Finds and loads the in-process addon (`entropic_loader.node`) once per process, and hands it the
 * `PluginError` class so native failures are real instances of it.
 *
 * Where it looks, in this fixed order: the file named by `ENTROPIC_LOADER_ADDON` (an explicit path), then what
 * `node-gyp-build` finds for this platform under the package root: `build/Release`, `build/Debug`, then
 * `prebuilds/<platform>-<arch>/`. A local compile therefore wins over a shipped prebuild; an installed package
 * holds one or the other (the install script compiles only when no prebuild fits).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { HOST_ERROR_CODES, PluginError } from '../errors.js';

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
}

const require = createRequire(import.meta.url);
/** The package root: this file sits in `src/inprocess/` or `dist/inprocess/`. */
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

let addon: Addon | undefined;

function locate(): string {
  const explicit = process.env.ENTROPIC_LOADER_ADDON;
  if (explicit !== undefined && explicit !== '') {
    if (!existsSync(explicit))
      throw new Error(`ENTROPIC_LOADER_ADDON names ${explicit}, which does not exist`);
    return explicit;
  }
  const nodeGypBuild = require('node-gyp-build') as { resolve(dir: string): string };
  return nodeGypBuild.resolve(packageRoot);
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
      `the in-process addon entropic_loader.node was not found (${(cause as Error).message.trim()}); ` +
        'build it with `pnpm --filter @entropic-mcp/loader build`, reinstall the package so its install script ' +
        'compiles it, or use isolation: "process"',
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
