/**
 * Finds the plugin host executable, in this order: the `hostPath` option, the `ENTROPIC_PLUGIN_HOST`
 * environment variable, the prebuild for this platform (`prebuilds/<platform>-<arch>/`), the local build
 * (`build/Release/`, then `build/Debug/`).
 */
import { accessSync, chmodSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST_ERROR_CODES, PluginError } from '../errors.js';

export const HOST_NAME = 'entropic_plugin_host';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `pnpm pack` drops the executable bit of the prebuilt host; give it back when the file is there. */
function restorePrebuildMode(): void {
  const [prebuild] = hostCandidates();
  if (prebuild === undefined || executable(prebuild)) return;
  try {
    chmodSync(prebuild, 0o755);
  } catch {
    // read-only install: the next candidates are tried
  }
}

export function hostCandidates(): string[] {
  const prebuild = join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`, HOST_NAME);
  return [
    prebuild,
    join(packageRoot, 'build', 'Release', HOST_NAME),
    join(packageRoot, 'build', 'Debug', HOST_NAME),
  ];
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
  restorePrebuildMode();
  const found = hostCandidates().find(executable);
  if (found !== undefined) return found;
  throw new PluginError(
    HOST_ERROR_CODES.unavailable,
    `no ${HOST_NAME} executable found (looked at ${hostCandidates().join(', ')}); build it with ` +
      '`pnpm --filter @entropic-mcp/loader build` or set ENTROPIC_PLUGIN_HOST',
    { path: pluginPath },
  );
}
