/** Loads every configured plugin at once and sorts the outcomes into loaded and failed. */

import type { LoadOptions, Plugin } from '@entropic-mcp/loader';
import { loadPlugin } from '@entropic-mcp/loader';
import type { PluginEntry } from '../config/types.js';

export interface LoadedPlugin {
  readonly entry: PluginEntry;
  readonly plugin: Plugin;
}

export interface FailedPlugin {
  readonly entry: PluginEntry;
  readonly error: unknown;
}

export interface LoadOutcome {
  readonly loaded: LoadedPlugin[];
  readonly failed: FailedPlugin[];
}

export function loadOptionsOf(entry: PluginEntry, workingDir: string): LoadOptions {
  return {
    workingDir,
    ...(entry.isolation === undefined ? {} : { isolation: entry.isolation }),
    ...(entry.config === undefined ? {} : { config: entry.config }),
    ...(entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
    ...(entry.memoryLimitMb === undefined ? {} : { memoryLimitMb: entry.memoryLimitMb }),
    ...(entry.instances === undefined ? {} : { instances: entry.instances }),
    ...(entry.logLimit === undefined ? {} : { logLimit: entry.logLimit }),
    ...(entry.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: entry.maxAnswerBytes }),
    ...(entry.sandbox ? { sandbox: entry.sandbox } : {}),
  };
}

/**
 * Never rejects: each entry ends up in `loaded` or `failed`, in the order given. `onStderr` receives what an
 * isolated plugin host writes to its stderr, with the plugin's path, masked by `masker` (serve's, which knows the
 * secrets serve was given) as is the tail a crash message quotes.
 */
export async function loadAll(
  entries: readonly PluginEntry[],
  workingDir: string,
  onStderr?: (path: string, text: string) => void,
  masker?: LoadOptions['masker'],
): Promise<LoadOutcome> {
  const settled = await Promise.allSettled(
    entries.map((e) =>
      loadPlugin(e.path, {
        ...loadOptionsOf(e, workingDir),
        ...(onStderr === undefined ? {} : { onStderr: (text: string) => onStderr(e.path, text) }),
        ...(masker === undefined ? {} : { masker }),
      }),
    ),
  );
  const outcome: LoadOutcome = { loaded: [], failed: [] };
  settled.forEach((result, i) => {
    const entry = entries[i]!;
    if (result.status === 'fulfilled') outcome.loaded.push({ entry, plugin: result.value });
    else outcome.failed.push({ entry, error: result.reason });
  });
  return outcome;
}

/** One line naming the plugin that failed and why: `path: CODE: message`. */
export function describeLoadFailure(failure: FailedPlugin): string {
  const error = failure.error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `${failure.entry.path}: ${typeof code === 'string' ? `${code}: ` : ''}${message}`;
}
