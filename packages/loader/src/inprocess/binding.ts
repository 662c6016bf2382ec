/**
 * Finds and loads the in-process addon (`entropic_loader.node`) once per process, and hands it the
 * `PluginError` class so native failures are real instances of it.
 *
 * Where it looks, in this fixed order (the same as for the host executable): the file named by
 * `ENTROPIC_LOADER_ADDON` (an explicit path); the prebuild for this platform under `prebuilds/`, matched by
 * node-gyp-build's own tag rules (platform, arch, N-API, libc); then the local build (`build/Release`,
 * `build/Debug`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
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
  /** Moves the protocol off fds 0 and 1 (once per process); see `native/addon/addon.cc`. */
  protectStdio(): { readonly input: number; readonly output: number };
}

const require = createRequire(import.meta.url);
/** The package root: this file sits in `src/inprocess/` or `dist/inprocess/`. */
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

let addon: Addon | undefined;

interface Tags {
  readonly file: string;
}

/** The parts of node-gyp-build used here: its resolver and the tag matching its resolver applies. */
interface NodeGypBuild {
  resolve(dir: string): string;
  parseTuple(name: string): { name: string } | undefined;
  matchTuple(platform: string, arch: string): (tuple: unknown) => boolean;
  compareTuples(a: unknown, b: unknown): number;
  parseTags(file: string): Tags | undefined;
  matchTags(runtime: string, abi: string): (tags: unknown) => boolean;
  compareTags(runtime: string): (a: unknown, b: unknown) => number;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function prebuild(ngb: NodeGypBuild): string | undefined {
  const root = join(packageRoot, 'prebuilds');
  const [tuple] = entries(root)
    .map(ngb.parseTuple)
    .filter(ngb.matchTuple(process.platform, process.arch))
    .sort(ngb.compareTuples) as { name: string }[];
  if (tuple === undefined) return undefined;
  const folder = join(root, tuple.name);
  const [winner] = entries(folder)
    .map(ngb.parseTags)
    .filter(ngb.matchTags('node', process.versions.modules))
    .sort(ngb.compareTags('node')) as Tags[];
  return winner === undefined ? undefined : join(folder, winner.file);
}

function locate(): string {
  const explicit = process.env.ENTROPIC_LOADER_ADDON;
  if (explicit !== undefined && explicit !== '') {
    if (!existsSync(explicit))
      throw new Error(`ENTROPIC_LOADER_ADDON names ${explicit}, which does not exist`);
    return explicit;
  }
  const ngb = require('node-gyp-build') as NodeGypBuild;
  return prebuild(ngb) ?? ngb.resolve(packageRoot);
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
