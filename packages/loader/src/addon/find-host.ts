/**
 * Finds the plugin host executable: the `hostPath` option, else the `ENTROPIC_PLUGIN_HOST` environment
 * variable, else the first of `hostCandidates()` (see `../native-files.ts`) that can be run.
 */
import { accessSync, chmodSync, constants, existsSync } from 'node:fs';
import { HOST_ERROR_CODES, PluginError } from '../base/errors.js';
import { buildAdvice, HOST_NAME, hostCandidates, platformLabel } from './native-files.js';

export { HOST_NAME, hostCandidates };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Some packers drop the executable bit of a prebuilt host; give it back when the file is there. */
function restoreMode(path: string): void {
  if (!existsSync(path) || executable(path)) return;
  try {
    chmodSync(path, 0o755);
  } catch {
    // read-only install: the next candidates are tried
  }
}

export function findHost(explicit: string | undefined, pluginPath: string): string {
  const chosen = explicit ?? process.env.ENTROPIC_PLUGIN_HOST;
  if (chosen !== undefined && chosen !== '') {
    if (executable(chosen)) return chosen;
    throw new PluginError(
      HOST_ERROR_CODES.unavailable,
      `the plugin host ${chosen} is not an executable file`,
      {
        path: pluginPath,
      },
    );
  }
  const candidates = hostCandidates();
  for (const path of candidates) restoreMode(path);
  const found = candidates.find(executable);
  if (found !== undefined) return found;
  throw new PluginError(
    HOST_ERROR_CODES.unavailable,
    `no ${HOST_NAME} executable for ${platformLabel()} (looked at ${candidates.join(', ')}); ` +
      `${buildAdvice()}; or set ENTROPIC_PLUGIN_HOST`,
    { path: pluginPath },
  );
}
