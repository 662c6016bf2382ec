/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance, Node 22) against
 * examples/conformance-server in each HTTP mode and compares every check's outcome with what the
 * spec allows in that mode (see README.md, "Conformance by mode").
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForConformance, node22, pkg, startExample } from './support/conformance.js';

const suite = join(pkg, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Checks that cannot pass in a mode, and why (the README explains each). */
const EXPECTED: Record<string, { failures: string[]; warnings: string[] }> = {
  'stateful, SSE': { failures: [], warnings: [] },
  // One JSON body carries only the response: progress and log notifications of a request have no stream.
  'stateful, JSON': { failures: ['tools-call-with-logging', 'tools-call-with-progress'], warnings: [] },
  // No session: the client's answer to sampling/elicitation would arrive in an unrelated request,
  // and nothing can be resumed, so no priming event, retry field or multi-stream session.
  stateless: {
    failures: [
      'elicitation-sep1034-general',
      'elicitation-sep1330-general',
      'tools-call-elicitation',
      'tools-call-sampling',
    ],
    warnings: [
      'server-sse-multiple-streams-session',
      'server-sse-polling-session',
      'server-sse-priming-event',
      'server-sse-retry-field',
    ],
  },
  'stateless, JSON': {
    failures: [
      'elicitation-sep1034-general',
      'elicitation-sep1330-general',
      'tools-call-elicitation',
      'tools-call-sampling',
      'tools-call-with-logging',
      'tools-call-with-progress',
    ],
    warnings: ['server-sse-multiple-streams-session', 'server-sse-polling-session'],
  },
};

const FLAGS: Record<string, string[]> = {
  'stateful, SSE': [],
  'stateful, JSON': ['--json-response'],
  stateless: ['--stateless'],
  'stateless, JSON': ['--stateless', '--json-response'],
};

function runSuite(url: string, dir: string): Check[] {
  const r = spawnSync(node22, [suite, 'server', '--url', url, '--suite', 'all', '-o', dir], {
    encoding: 'utf8',
    timeout: 280_000,
  });
  if (r.error !== undefined) throw r.error;
  const checks: Check[] = [];
  for (const scenario of readdirSync(dir)) {
    checks.push(...(JSON.parse(readFileSync(join(dir, scenario, 'checks.json'), 'utf8')) as Check[]));
  }
  if (checks.length === 0) throw new Error(`the suite wrote no results:\n${r.stdout}${r.stderr}`);
  return checks;
}

const outDirs: string[] = [];
beforeAll(buildForConformance, 180_000);
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(EXPECTED))('conformance suite, %s', (mode) => {
  it('passes every check the mode allows; exactly the documented ones fail or warn', async () => {
    const { child, url } = await startExample(FLAGS[mode] ?? []);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
    outDirs.push(dir);
    try {
      const checks = runSuite(url, dir);
      const ids = (status: Check['status']): string[] =>
        [...new Set(checks.filter((c) => c.status === status).map((c) => c.id))].sort();
      const failures = checks.filter((c) => c.status === 'FAILURE');
      expect(ids('FAILURE'), JSON.stringify(failures, null, 2)).toEqual(EXPECTED[mode]?.failures);
      expect(ids('WARNING')).toEqual(EXPECTED[mode]?.warnings);
      expect(ids('SUCCESS').length).toBeGreaterThanOrEqual(28);
      expect(ids('SUCCESS')).toContain('localhost-host-rebinding-rejected');
      if (mode === 'stateful, SSE') {
        expect(ids('SUCCESS')).toEqual(
          expect.arrayContaining(['server-sse-disconnect-resume', 'server-sse-priming-event']),
        );
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 300_000);
});
