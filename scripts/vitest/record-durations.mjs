#!/usr/bin/env node
// Writes durations.json, the seconds each test file took, which the sequencer reads to start the longest files
// first in a clone that has not run the tests yet. The figures come from vitest's own results cache (what the
// sequencer reads in a checkout that ran the tests): a file's whole time there, its beforeAll hooks included.
// The JSON report's start and end leave out what runs before the first test (a file whose work is all in a
// beforeAll, such as the benchmark smoke test, reads as 0 s there), so it is no source for this. Keeps the
// figures of files the cache does not cover, and drops those of files that are gone.
//   node scripts/vitest/record-durations.mjs [CACHE-RESULTS.json ...]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const table = fileURLToPath(new URL('durations.json', import.meta.url));

/** vitest's results cache files under the root's node_modules/.vite/vitest/<hash>/. */
function cacheFiles() {
  const dir = join(repo, 'node_modules', '.vite', 'vitest');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((hash) => join(dir, hash, 'results.json'))
    .filter((file) => existsSync(file));
}

const sources = process.argv.length > 2 ? process.argv.slice(2) : cacheFiles();
if (sources.length === 0) {
  console.error('no vitest results cache found: run the tests first (npm test), then this');
  process.exit(1);
}
const files = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')).files : {};
let recorded = 0;
for (const source of sources) {
  // Entries are [`<project>:<path from the root>`, { duration (ms), failed }].
  for (const [key, result] of JSON.parse(readFileSync(source, 'utf8')).results) {
    const path = key.split(':').slice(2).join(':');
    if (!(result?.duration > 0) || path === '') continue;
    files[path] = Math.max(1, Math.round(result.duration / 1000));
    recorded += 1;
  }
}
const kept = Object.entries(files)
  .filter(([file]) => existsSync(join(repo, file)))
  .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
const text = JSON.stringify({ files: Object.fromEntries(kept) }, null, 2);
writeFileSync(table, `${text}\n`);
console.log(`${relative(repo, table)}: ${recorded} files recorded, ${kept.length} in all`);
