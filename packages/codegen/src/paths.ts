import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
