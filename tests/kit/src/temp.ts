/** Temporary directories for tests: one fresh folder under the system's temp dir, its real path. */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty folder `entropic-<prefix>-XXXXXX` (symlinks resolved, so paths compare equal to what a child sees). */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `entropic-${prefix}-`)));
}
