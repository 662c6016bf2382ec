// Where the abi-headers package is: the installed one, or the one in the work tree a command runs in.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/** Absolute path of the installed `@entropic-mcp/abi-headers` package (symlinks resolved). */
export function abiHeadersRoot(): string {
  const require = createRequire(import.meta.url);
  return realpathSync(dirname(require.resolve('@entropic-mcp/abi-headers/package.json')));
}

/** The ABI definitions folder shipped in abi-headers' `src/abi`. */
export function defaultDefinitionsDir(): string {
  return join(abiHeadersRoot(), 'src', 'abi');
}

/** The lock file of abi-headers. */
export function defaultLockPath(): string {
  return join(abiHeadersRoot(), 'abi.lock.json');
}

const PACKAGE_NAME = '@entropic-mcp/abi-headers';

function isAbiHeaders(dir: string): boolean {
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return false;
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/**
 * The abi-headers package the commands work on: the nearest one at or above `cwd` (the package
 * folder itself, or `packages/abi-headers` of a workspace), else the installed package. Inside
 * this repository both are the same folder; in a clone or a copy it is the clone's own package.
 */
export function workingAbiHeadersRoot(cwd: string = process.cwd()): string {
  let dir = resolve(cwd);
  for (;;) {
    if (isAbiHeaders(dir)) return dir;
    const nested = join(dir, 'packages', 'abi-headers');
    if (isAbiHeaders(nested)) return nested;
    const up = dirname(dir);
    if (up === dir) return abiHeadersRoot();
    dir = up;
  }
}
