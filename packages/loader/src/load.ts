/**
 * `loadPlugin`: checks the arguments, then hands them to one hosting mode.
 *
 * Each mode lives in its own folder and exports `load(path, options): Promise<Plugin>`:
 * `./isolated/index.js` (a host process per plugin, the default) and `./inprocess/index.js` (the Node-API
 * addon). The in-process mode is imported only when asked for, so the isolated mode works without the addon.
 * `instances: N` (N > 1) loads N of them and serves them as one `PluginPool`.
 */

import { HOST_ERROR_CODES, PluginError } from './base/errors.js';
import type { LoadOptions, Plugin } from './base/types.js';
import { checkLoadOptions, checkPluginPath, type ResolvedLoadOptions } from './hosting/checks.js';
import { PluginPool } from './hosting/pool.js';
import { prepareSandbox } from './hosting/prepare-sandbox.js';

/** What a hosting mode module exports. */
export interface HostingMode {
  load(path: string, options: ResolvedLoadOptions): Promise<Plugin>;
}

async function inProcessMode(path: string): Promise<HostingMode> {
  // A computed specifier: this build may not contain the in-process mode.
  const specifier = './inprocess/index.js';
  try {
    return (await import(specifier)) as HostingMode;
  } catch (cause) {
    throw new PluginError(
      HOST_ERROR_CODES.unavailable,
      `the in-process mode is not available: ${String(cause)}`,
      {
        path,
        cause,
      },
    );
  }
}

/**
 * Loads the plugin at the absolute `path` and checks it against the contract. Rejects with a `TypeError` for
 * bad arguments and a `PluginError` (see `errors.ts`) when the plugin cannot be hosted.
 */
export async function loadPlugin(path: string, options?: LoadOptions): Promise<Plugin> {
  const absolute = checkPluginPath(path);
  const checked = checkLoadOptions(options);
  const sandboxPlan = await prepareSandbox(absolute, checked);
  const resolved = sandboxPlan === undefined ? checked : { ...checked, sandboxPlan };
  const mode: HostingMode =
    resolved.isolation === 'none' ? await inProcessMode(absolute) : await import('./isolated/index.js');
  if (resolved.instances === 1) return mode.load(absolute, resolved);
  const loading = Array.from({ length: resolved.instances }, () => mode.load(absolute, resolved));
  const settled = await Promise.allSettled(loading);
  const members = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.allSettled(members.map((p) => p.close()));
    throw failed.reason;
  }
  return new PluginPool(members);
}
