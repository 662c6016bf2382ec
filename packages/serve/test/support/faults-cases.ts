/**
 * The plugin-fault matrix shared by the stdio and HTTP fault tests: each row is one tool of
 * test/fixtures/faults/faulty.c and what the MCP client must see when it is called through
 * `entropic-mcp serve`. Two copies of the fixture are served: `faulty` (called with the fault) and
 * `calm` (slow calls kept in flight meanwhile).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { hostsSleeping } from './plugin-hosts.js';
import { compileFixture, textOf } from './serve-helpers.js';

export const FAULTY_SOURCE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'faults',
  'faulty.c',
);

/**
 * Per-call time limit given to serve: the `hang` row ends by it. It counts from when a call is queued, so it
 * leaves room for the two 600 ms `calm` calls that run one after another (and the 1.5 s `slow` row) on a
 * loaded machine.
 */
export const CALL_TIMEOUT_MS = 5_000;

export interface FaultRow {
  readonly tool: string;
  /** An isError result whose text matches, or a normal result whose text passes `text`. */
  readonly error?: RegExp;
  readonly text?: (text: string) => boolean;
  readonly args?: Record<string, unknown>;
}

export const FAULTS: readonly FaultRow[] = [
  { tool: 'segfault', error: /\[ENTROPIC_PLUGIN_CRASHED, SIGSEGV\]/ },
  { tool: 'abort', error: /\[ENTROPIC_PLUGIN_CRASHED, SIGABRT\]/ },
  { tool: 'hang', error: /\[ENTROPIC_ERROR_TIMEOUT\]/ },
  { tool: 'null', error: /\[ENTROPIC_PLUGIN_BAD_ANSWER\].*NULL/ },
  { tool: 'invalid_json', error: /\[ENTROPIC_PLUGIN_BAD_ANSWER\].*not valid JSON/ },
  { tool: 'non_object', error: /\[ENTROPIC_PLUGIN_BAD_ANSWER\].*an array, expected a JSON object/ },
  { tool: 'missing_result', error: /\[ENTROPIC_PLUGIN_BAD_ANSWER\].*no "result"/ },
  { tool: 'huge', text: (t) => t.length === 5 * 1024 * 1024 && /^x+$/.test(t) },
  { tool: 'noise', text: (t) => t === 'quiet answer' },
  { tool: 'slow', args: { ms: 1500 }, text: (t) => t === 'slow done' },
];

/** Compiles the fixture as plugin `name` into `dir`. */
export function buildFaulty(dir: string, name: string): string {
  return compileFixture(FAULTY_SOURCE, name, join(dir, `lib${name}.so`));
}

/**
 * One row: two slow `calm` calls in flight, the faulty call, then checks that the fault was reported
 * (or the answer is right), that the calm calls completed with their answers, and that `faulty`
 * serves again. `pluginDir` must not appear in what the client sees. `servePid` is the serve process.
 */
export async function runFault(
  client: Client,
  row: FaultRow,
  pluginDir: string,
  servePid: number,
): Promise<void> {
  let answered = false;
  const calm = [1, 2].map(() => client.callTool({ name: 'calm.slow', arguments: { ms: 600 } }));
  void Promise.allSettled(calm).then(() => {
    answered = true;
  });
  // A calm call is running in its plugin (or, on a stalled test process, is already answered).
  await waitFor(() => answered || hostsSleeping(servePid) >= 1, 20_000, 'a calm call inside its plugin');
  const result = await client.callTool({ name: `faulty.${row.tool}`, arguments: row.args ?? {} }, undefined, {
    timeout: 60_000,
  });
  const text = textOf(result);
  if (row.error !== undefined) {
    expect(result.isError).toBe(true);
    expect(text).toContain('plugin "faulty"');
    expect(text).toContain(`tool "${row.tool}"`);
    expect(text).toMatch(row.error);
  } else {
    expect(result.isError).toBeFalsy();
    expect(row.text?.(text)).toBe(true);
  }
  expect(JSON.stringify(result)).not.toContain(pluginDir);
  for (const done of await Promise.all(calm)) {
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toBe('slow done');
  }
  const again = await client.callTool({ name: 'faulty.echo', arguments: {} });
  expect(again.isError).toBeFalsy();
  expect(textOf(again)).toBe('ok');
}
