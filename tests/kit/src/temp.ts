/**
 * Temporary directories for tests: one fresh folder under the system's temp dir, its real path. A test file's
 * folders are removed with everything in them once its last hook ran (`cleanup.ts`, a setup file of every lane
 * that imports this kit), or when the process exits, so runs leave no folders behind.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Removes every folder `tempDir` made so far in this process. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // a mount point, or a child still writing there: what is left is the system's to clean
    }
  }
}

/** A new empty folder `entropic-<prefix>-XXXXXX` (symlinks resolved, so paths compare equal to what a child sees). */
export function tempDir(prefix: string): string {
  if (made.length === 0) process.once('exit', removeTempDirs);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `entropic-${prefix}-`)));
  made.push(dir);
  return dir;
}
