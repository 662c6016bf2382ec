#!/usr/bin/env node
// Writes durations.json, the seconds each test file took, which the sequencer reads to start the longest files
// first in a clone that has not run the tests yet. Reads vitest JSON reports (the whole-workspace one that
// `npm test` leaves at the root by default, or the packages' own), keeps the figures of files the reports do not
// cover, and drops those of files that are gone.
//   node scripts/vitest/record-durations.mjs [REPORT.json ...]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const table = fileURLToPath(new URL('durations.json', import.meta.url));
const reports = process.argv.length > 2 ? process.argv.slice(2) : [join(repo, '.vitest-results.json')];

const files = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')).files : {};
let recorded = 0;
for (const report of reports) {
  for (const result of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    if (result.endTime === undefined || result.startTime === undefined) continue;
    files[relative(repo, result.name)] = Math.round((result.endTime - result.startTime) / 1000);
    recorded += 1;
  }
}
const kept = Object.entries(files)
  .filter(([file]) => existsSync(join(repo, file)))
  .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
const text = JSON.stringify({ files: Object.fromEntries(kept) }, null, 2);
writeFileSync(table, `${text}\n`);
console.log(`${relative(repo, table)}: ${recorded} files recorded, ${kept.length} in all`);
