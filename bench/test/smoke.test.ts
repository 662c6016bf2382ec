// Keeps the benchmark working: a quick run must produce figures for every server in every workload.
// It asserts nothing about speed; performance is read from `pnpm bench`, never from a test.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Row {
  target: string;
  label: string;
  skipped?: string;
  error?: string;
  perSecond?: number;
  p50us?: number;
  peakRss?: number;
  points?: { calls: number; rss: number }[];
  medianMs?: number;
  hostCpuPerCallUs?: number;
}
interface Table {
  id: string;
  kind?: string;
  rows: Row[];
}
interface Result {
  tables: Table[];
  targets: { target: string; verdict: string }[];
}

const main = fileURLToPath(new URL('../src/main.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'entropic-bench-smoke-'));
let result: Result;
let markdown: string;

beforeAll(async () => {
  const out = join(dir, 'smoke');
  await promisify(execFile)(process.execPath, [main, '--quick', '--out', out], { maxBuffer: 16 * 2 ** 20 });
  result = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Result;
  markdown = readFileSync(`${out}.md`, 'utf8');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const problems = (table: Table) =>
  table.rows
    .filter((row) => row.skipped || row.error)
    .map((row) => `${row.label}: ${row.skipped ?? row.error}`);

describe('pnpm bench --quick', () => {
  it('measures every stdio server at 1 and at 64 in flight with both client patterns', () => {
    for (const id of ['stdio-1', 'stdio-64', 'stdio-64-each']) {
      const table = result.tables.find((t) => t.id === id)!;
      expect(problems(table)).toEqual([]);
      expect(table.rows.map((r) => r.target)).toEqual([
        'entropic',
        'plugin-isolated',
        'plugin-inprocess',
        'serve-ts-async',
        'sdk-v1',
        'sdk-v2',
        'bare',
      ]);
      for (const row of table.rows) {
        expect(row.perSecond, row.label).toBeGreaterThan(0);
        expect(row.p50us, row.label).toBeGreaterThan(0);
        expect(row.peakRss, row.label).toBeGreaterThan(0);
      }
    }
  });

  it('measures every HTTP server in SSE, JSON and stateless modes at 1 and 64 clients', () => {
    for (const mode of ['sse', 'json', 'stateless']) {
      for (const clients of [1, 64]) {
        const table = result.tables.find((t) => t.id === `http-${mode}-${clients}`)!;
        expect(problems(table)).toEqual([]);
        const serve = mode === 'sse' ? ['plugin-isolated', 'serve-ts'] : [];
        expect(table.rows.map((r) => r.target)).toEqual(['entropic', 'sdk-v1', 'sdk-v2', ...serve, 'bare']);
        for (const row of table.rows) expect(row.perSecond, row.label).toBeGreaterThan(0);
      }
    }
  });

  it('counts the CPU of the isolated plugin host beside the server for every plugin row', () => {
    for (const id of ['stdio-1', 'stdio-64', 'stdio-64-each', 'http-sse-1', 'http-sse-64']) {
      const rows = result.tables.find((t) => t.id === id)!.rows;
      const isolated = rows.find((r) => r.target === 'plugin-isolated')!;
      expect(isolated.hostCpuPerCallUs, id).toBeGreaterThan(0);
      for (const row of rows.filter((r) => r.target !== 'plugin-isolated'))
        expect(row.hostCpuPerCallUs, `${id} ${row.label}`).toBe(0);
    }
    expect(markdown).toMatch(/\| [0-9.]+ \(\+[0-9.]+ host\) \|/); // the tables' CPU column
    expect(markdown).toMatch(/p50 [0-9,]+ µs \([0-9.]+ µs CPU \+ [0-9.]+ µs host\)/); // the summary
  });

  it('runs the 2 ms CPU plugin tool with one instance and with two', () => {
    const table = result.tables.find((t) => t.id === 'instances')!;
    expect(problems(table)).toEqual([]);
    expect(table.rows.map((r) => r.target)).toEqual(['spin-x1', 'spin-x2']);
    for (const row of table.rows) expect(row.perSecond, row.label).toBeGreaterThan(0);
  });

  it('measures our server, SDK v2 and the ceiling in the 2026-07-28 era over stdio and HTTP at 1 and 64', () => {
    for (const id of [
      'stdio-modern-1',
      'stdio-modern-64',
      'stdio-modern-64-each',
      'http-modern-1',
      'http-modern-64',
    ]) {
      const table = result.tables.find((t) => t.id === id)!;
      expect(table.rows.map((r) => r.target)).toEqual(['entropic', 'sdk-v2', 'bare']);
      expect(problems(table)).toEqual([]);
      for (const row of table.rows) expect(row.perSecond, row.label).toBeGreaterThan(0);
    }
  });

  it('measures every OpenTelemetry target, the server from before its telemetry included', () => {
    for (const id of ['telemetry-1', 'telemetry-64', 'telemetry-64-each']) {
      const table = result.tables.find((t) => t.id === id)!;
      expect(problems(table)).toEqual([]);
      expect(table.rows.map((r) => r.target)).toEqual([
        'entropic-today',
        'entropic-api',
        'entropic-sdk',
        'plugin-api',
        'plugin-sdk',
      ]);
      for (const row of table.rows) expect(row.perSecond, row.label).toBeGreaterThan(0);
    }
    const cost = result.tables.find((t) => t.id === 'telemetry-cost')!;
    expect(cost.rows).toHaveLength(3);
  });

  it('reads RSS at each growth checkpoint and times the ABI CLI', () => {
    const growth = result.tables.find((t) => t.id === 'growth')!;
    expect(problems(growth)).toEqual([]);
    expect(growth.rows).toHaveLength(4);
    for (const row of growth.rows) {
      expect(row.points, row.label).toHaveLength(2);
      for (const point of row.points!) expect(point.rss, row.label).toBeGreaterThan(0);
    }
    const abi = result.tables.find((t) => t.id === 'abi')!;
    expect(problems(abi)).toEqual([]);
    expect(abi.rows.map((r) => r.target)).toEqual(['check', 'generate']);
    for (const row of abi.rows) expect(row.medianMs, row.label).toBeGreaterThan(0);
  });

  it('times the plugin host start-up with the sandbox off and on, and calls with and without it', () => {
    const start = result.tables.find((t) => t.id === 'sandbox-start')!;
    for (const name of ['off', 'sandbox']) {
      const row = start.rows.find((r) => r.target === name)!;
      expect(row.skipped ?? row.error, name).toBeUndefined();
      expect(row.medianMs, name).toBeGreaterThan(0);
    }
    const calls = result.tables.find((t) => t.id === 'sandbox-calls')!;
    expect(calls.rows.map((r) => r.target)).toEqual(['off', 'sandbox']);
    for (const row of calls.rows) expect(row.perSecond, row.label).toBeGreaterThan(0);
    expect(markdown).toContain('## Plugin host start-up, spawn to ready frame');
    const syscalls = result.tables.find((t) => t.id === 'sandbox-syscall')!;
    expect(syscalls.rows.map((r) => r.target).slice(0, 2)).toEqual(['off', 'sandbox']);
  });

  it('writes the tables with ratios and the verdict on each target', () => {
    expect(markdown).toContain('× SDK v1');
    expect(markdown).toContain('× ceiling');
    expect(result.targets.length).toBeGreaterThanOrEqual(10);
    expect(result.targets.map((t) => t.verdict)).not.toContain('not measured');
    const perMessage = result.targets.filter((t) => t.target.includes('per-message client'));
    expect(perMessage.map((t) => t.target)).toEqual([
      'C plugin, isolated, stdio 64 in flight, per-message client ≥ 0.7× TS echo',
      'C plugin, isolated, stdio 64 in flight, per-message client ≥ 3.5× SDK v2',
    ]);
    expect(markdown).toContain('| stdio, C plugin isolated, 64 in flight, per-message client |');
  });
});
