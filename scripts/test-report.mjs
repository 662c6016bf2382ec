// Sums up the JSON report of a whole-workspace vitest run: per package, its files, tests and time (from its first
// file's start to its last file's end, and the sum of its files' times), the slowest files, and one closing line.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { formatDuration } from './steps.mjs';

/** `packages/server/test/x.test.ts` → `server`, `bench/test/y.test.mjs` → `bench`. */
function suiteOf(file) {
  const parts = file.split(sep);
  return parts[0] === 'packages' || parts[0] === 'tests' ? parts[1] : parts[0];
}

/** Prints the summary of the report at `path` and returns how many tests failed. */
export function printTestReport(path, root) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const suites = new Map();
  const files = [];
  for (const result of report.testResults) {
    const file = relative(root, result.name);
    const ms = Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0));
    files.push({ file, ms });
    const name = suiteOf(file);
    const s = suites.get(name) ?? { files: 0, passed: 0, failed: 0, start: Infinity, end: 0, busy: 0 };
    s.files += 1;
    for (const test of result.assertionResults) {
      if (test.status === 'passed') s.passed += 1;
      else if (test.status === 'failed') s.failed += 1;
    }
    if (result.status === 'failed' && result.assertionResults.every((t) => t.status !== 'failed'))
      s.failed += 1;
    s.start = Math.min(s.start, result.startTime ?? Infinity);
    s.end = Math.max(s.end, result.endTime ?? 0);
    s.busy += ms;
    suites.set(name, s);
  }
  const width = Math.max(7, ...[...suites.keys()].map((n) => n.length));
  console.log(`\n${'package'.padEnd(width)}  files  passed  failed       span   file time`);
  for (const [name, s] of [...suites].sort((a, b) => b[1].busy - a[1].busy)) {
    const span = formatDuration(Math.max(0, s.end - s.start));
    console.log(
      `${name.padEnd(width)}  ${String(s.files).padStart(5)}  ${String(s.passed).padStart(6)}  ` +
        `${String(s.failed).padStart(6)}  ${span.padStart(9)}  ${formatDuration(s.busy).padStart(10)}`,
    );
  }
  console.log('\nslowest files:');
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 8)) {
    console.log(`  ${formatDuration(f.ms).padStart(10)}  ${f.file}`);
  }
  const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
  const failedFiles = report.testResults.filter(
    (r) => r.status === 'failed' && r.assertionResults.every((t) => t.status !== 'failed'),
  ).length;
  const failed = report.numFailedTests + failedFiles;
  const broken = failedFiles > 0 ? ` (${failedFiles} files failed outside any test)` : '';
  console.log(`\n${report.numPassedTests} passed, ${failed} failed${broken}, ${skipped} skipped`);
  return failed;
}
