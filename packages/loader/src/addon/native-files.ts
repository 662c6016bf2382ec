/**
 * Where the native parts (the plugin host executable and the in-process addon) are looked for, and what to
 * tell a user when one is missing. Used by both hosting modes and by `entropic-mcp build-native`.
 *
 * Order, for both: a local build (`build/Release`, `build/Debug`; made by `entropic-mcp build-native` where no
 * prebuild matches, or by `pnpm build` in the source repository), then the prebuild for this platform in
 * `prebuilds/<platform>-<arch>/`. The addon follows node-gyp-build's tag rules (platform, arch, N-API, libc);
 * the host is `entropic_plugin_host.<libc>` on Linux (libc as node-gyp-build sees it: `LIBC`, else musl on
 * Alpine, else glibc), else plain `entropic_plugin_host`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOST_NAME = 'entropic_plugin_host';
export const PACKAGE_NAME = '@entropic-mcp/loader';

/** The package root: this file sits in `src/addon/` or `dist/addon/`. */
export const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

const require = createRequire(import.meta.url);

/** The C library the prebuilds are matched against on Linux; undefined elsewhere. */
export function libc(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const forced = process.env.LIBC;
  if (forced !== undefined && forced !== '') return forced;
  return existsSync('/etc/alpine-release') ? 'musl' : 'glibc';
}

/** `linux-x64 (glibc)`: the platform as the prebuilds name it. */
export function platformLabel(): string {
  const c = libc();
  return `${process.platform}-${process.arch}${c === undefined ? '' : ` (${c})`}`;
}

export function prebuildDir(): string {
  return join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`);
}

/** Every place the host executable may be, best first. */
export function hostCandidates(): string[] {
  const c = libc();
  const prebuilt = join(prebuildDir(), HOST_NAME);
  return [
    join(packageRoot, 'build', 'Release', HOST_NAME),
    join(packageRoot, 'build', 'Debug', HOST_NAME),
    ...(c === undefined ? [] : [`${prebuilt}.${c}`]),
    prebuilt,
  ];
}

/** The addon file node-gyp-build picks (local build first, then the matching prebuild); throws when none. */
export function resolveAddon(): string {
  const ngb = require('node-gyp-build') as { resolve(dir: string): string };
  return ngb.resolve(packageRoot);
}

/** True when the package was installed into a project (it sits in a node_modules folder). */
export function installedAsDependency(): boolean {
  return packageRoot.split(sep).includes('node_modules');
}

/**
 * What to do when a native part is missing for this platform: a consumer compiles it in their own project;
 * in the source repository, the package's build does it.
 */
export function buildAdvice(): string {
  if (!installedAsDependency()) return 'build it with `pnpm --filter @entropic-mcp/loader build`';
  return (
    `${PACKAGE_NAME} ships no prebuilt binary for ${platformLabel()}; compile it in your project with ` +
    '`npx entropic-mcp build-native` (once; it needs a C/C++ compiler, make and python3)'
  );
}
