/**
 * The suite's results: each scenario leaves its counts in a directory shared by the test files
 * (handed over by the global setup); at the end the global teardown prints one table of every scenario
 * and writes it with the details to `results/last-run.md` (and to the committed `results/latest.md`
 * when `CHAOS_RECORD=1`).
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { type EventCounts, type LaneCounts, type Ledger, renderLedger } from './ledger.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chaosParts: string;
  }
}

interface Part {
  readonly scenario: string;
  readonly startedAt: number;
  readonly seconds: number;
  readonly counts: LaneCounts;
  readonly events: EventCounts;
  readonly failures: string[];
  readonly markdown: string;
}

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../results');

/** Keep a finished scenario's counts for the final table. */
export function saveScenario(dir: string, ledger: Ledger, startedAt: number): string {
  const seconds = (Date.now() - startedAt) / 1000;
  const markdown = renderLedger(ledger, seconds);
  const part: Part = {
    scenario: ledger.scenario,
    startedAt,
    seconds,
    counts: ledger.counts(),
    events: ledger.events,
    failures: ledger.failures(),
    markdown,
  };
  writeFileSync(join(dir, `${startedAt}-${ledger.lanes().length}.json`), JSON.stringify(part));
  return markdown;
}

/** `NAME VERSION` of a tool, from the first match of `pattern` in what `command args` prints. */
function version(name: string, command: string, args: string[], pattern: RegExp): string {
  try {
    return `${name} ${pattern.exec(execFileSync(command, args, { encoding: 'utf8' }))?.[1] ?? '?'}`;
  } catch {
    return `${name} ?`;
  }
}

function summary(parts: readonly Part[], wallSeconds: number, loads: readonly number[]): string {
  const head = [
    '# Chaos suite: the last run',
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      `\`pnpm --filter @entropic-mcp/chaos-test ${process.env.CHAOS_RECORD === '1' ? 'record' : 'test'}\`; ` +
      `Node ${process.version}, ` +
      `${version('Redis', 'redis-server', ['--version'], /v=(\S+)/)}, ${version('HAProxy', 'haproxy', ['-v'], /version (\S+)/)}; ` +
      `load average ${loads.map((l) => l.toFixed(1)).join(' → ')}; the whole run took ${wallSeconds.toFixed(0)} s.`,
    '',
    '| scenario | requests | correct | clear error | hung | duplicated | wrong | slowest answer | events: once / lost / dropped | s | result |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |',
  ];
  const rows = parts.map((p) => {
    const c = p.counts;
    const e = p.events;
    const verdict = p.failures.length === 0 ? 'pass' : `**fail**: ${p.failures.join('; ')}`;
    const slowest = `${(c.slowestMs / 1000).toFixed(1)} s`;
    return `| ${p.scenario} | ${c.requests} | ${c.correct} | ${c.clearError} | ${c.hung} | ${c.duplicated} | ${c.wrong} | ${slowest} | ${e.delivered} / ${e.lost} / ${e.dropped} | ${p.seconds.toFixed(0)} | ${verdict} |`;
  });
  return [...head, ...rows, '', '## Each scenario', '', ...parts.map((p) => p.markdown)].join('\n');
}

/** Vitest global setup: a directory for the parts; the teardown prints and writes the results. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'emcp-chaos-results-'));
  const started = Date.now();
  const loadAtStart = loadavg()[0] as number;
  project.provide('chaosParts', dir);
  return () => {
    const parts = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Part)
      .sort((a, b) => a.startedAt - b.startedAt);
    rmSync(dir, { recursive: true, force: true });
    if (parts.length === 0) return;
    const text = summary(parts, (Date.now() - started) / 1000, [loadAtStart, loadavg()[0] as number]);
    console.log(`\n${text.split('\n## Each scenario')[0]}`);
    writeFileSync(join(RESULTS, 'last-run.md'), text);
    if (process.env.CHAOS_RECORD === '1') writeFileSync(join(RESULTS, 'latest.md'), text);
  };
}
