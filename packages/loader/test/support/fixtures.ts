/** Paths of the compiled test fixtures (`make -C test/fixtures`, run by the global setup before the tests). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'build');

export function fixture(name: string): string {
  const path = join(fixturesDir, `${name}.so`);
  if (!existsSync(path)) throw new Error(`fixture ${path} is not built; run make -C test/fixtures`);
  return path;
}
