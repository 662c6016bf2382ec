/**
 * The in-process hosting mode (`isolation: 'none'`), imported by `loadPlugin` only when asked for.
 */

import { loadAddon } from '../addon/binding.js';
import type { ResolvedLoadOptions } from '../hosting/checks.js';
import { InProcessHost, type InProcessPlugin } from './plugin.js';

export type { InProcessPlugin } from './plugin.js';

export async function load(path: string, options: ResolvedLoadOptions): Promise<InProcessPlugin> {
  const plugin = new InProcessHost(loadAddon(path), path, options);
  await plugin.open(options.configJson, options.workingDir);
  return plugin;
}
