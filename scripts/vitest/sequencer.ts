// Orders test files longest first, across every project, so that on a few workers the long integration files
// start at once and the short ones fill the gaps at the end. A file's expected time is its last duration in
// vitest's own cache (a checkout that ran the tests before), else the recorded figure in durations.json (a fresh
// clone), else a guess by lane.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TABLE = fileURLToPath(new URL('durations.json', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Seconds per file (path from the repository root), as `node scripts/vitest/record-durations.mjs` wrote them. */
function recorded(): Record<string, number> {
  if (!existsSync(TABLE)) return {};
  return (JSON.parse(readFileSync(TABLE, 'utf8')) as { files: Record<string, number> }).files;
}

export class LongestFirst extends BaseSequencer {
  private readonly table = recorded();

  private expectedMs(spec: TestSpecification): number {
    const root = this.ctx.config.root;
    const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(root, spec.moduleId)}`);
    if (cached !== undefined && cached.duration > 0) return cached.duration;
    const seconds = this.table[relative(REPO, spec.moduleId)];
    if (seconds !== undefined) return seconds * 1000;
    return spec.project.name.endsWith(':unit') ? 500 : 5_000;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(files.map((spec) => [spec, this.expectedMs(spec)]));
    return [...files].sort((a, b) => (expected.get(b) ?? 0) - (expected.get(a) ?? 0));
  }
}
