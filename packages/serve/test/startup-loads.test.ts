// What `entropic-mcp serve` loads at start-up: not yaml, which only a config file or `--sandbox` needs; and on
// a stdio start that nobody observes, neither the OpenTelemetry API nor the HTTP endpoint.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, examplePlugins, startHttp, tempDir } from './support/serve-helpers.js';

const SERVE_COMMAND = fileURLToPath(new URL('../dist/cli/serve.js', import.meta.url));
const CONFIG_PARSE = fileURLToPath(new URL('../dist/config/sandbox.js', import.meta.url));
const RECORD_LOADS = fileURLToPath(new URL('./support/record-loads.mjs', import.meta.url));
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'loads', version: '1' } },
})}\n`;

/** Whether a Node process that runs `script` (an ES module) then holds yaml among its CommonJS modules. */
function yamlLoadedAfter(script: string): boolean {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `${script}
       const { createRequire } = await import('node:module');
       const cache = createRequire(import.meta.url)('node:module')._cache;
       console.log(Object.keys(cache).some((file) => /[\\\\/]yaml[\\\\/]/.test(file)));`,
    ],
    { encoding: 'utf8' },
  );
  return out.trim() === 'true';
}

/** The environment that makes a serve child write the modules it loads to `file`, with no OTEL_* setting. */
function recording(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('OTEL_')) env[key] = value;
  }
  return { ...env, NODE_OPTIONS: `--import=${RECORD_LOADS}`, ENTROPIC_RECORD_LOADS: file };
}

const OTEL_API = /[\\/]@opentelemetry[\\/]api[\\/]/;
const HTTP_ENDPOINT = /[\\/]server[\\/]dist[\\/]http[\\/]/;
/** The did-you-mean lookup's edit distance, needed only to suggest a name after a mistake. */
const SUGGESTIONS = /[\\/]fastest-levenshtein[\\/]/;
const echo = (): string => examplePlugins().find((p) => p.endsWith('echo.so')) as string;

describe('yaml at serve start-up', () => {
  it('is not loaded by importing the serve command', () => {
    expect(yamlLoadedAfter(`await import(${JSON.stringify(SERVE_COMMAND)});`)).toBe(false);
  });

  it('is loaded once a YAML mapping is read (the check sees it)', () => {
    const read = `const { readSandboxFlag } = await import(${JSON.stringify(CONFIG_PARSE)});
      readSandboxFlag('{read: [/tmp]}', '/tmp');`;
    expect(yamlLoadedAfter(read)).toBe(true);
  });
});

describe('a serve start with no OTEL_* setting', () => {
  it.each([['process'], ['none']])(
    'over stdio (--isolation %s) answers initialize without the OpenTelemetry API, HTTP or suggestions',
    (isolation) => {
      const file = join(tempDir('loads'), 'loads.txt');
      const out = execFileSync(
        process.execPath,
        [CLI, 'serve', '--plugin', echo(), '--isolation', isolation],
        {
          input: INITIALIZE,
          env: recording(file),
          encoding: 'utf8',
          stdio: ['pipe', 'pipe', 'ignore'],
        },
      );
      expect(JSON.parse(out.split('\n')[0] as string)).toMatchObject({
        id: 1,
        result: { protocolVersion: '2025-11-25' },
      });
      const loads = readFileSync(file, 'utf8').split('\n');
      expect(loads.some((f) => f.endsWith(join('serve', 'dist', 'run', 'start.js')))).toBe(true);
      expect(loads.filter((f) => OTEL_API.test(f))).toEqual([]);
      expect(loads.filter((f) => HTTP_ENDPOINT.test(f))).toEqual([]);
      expect(loads.filter((f) => SUGGESTIONS.test(f))).toEqual([]);
    },
  );

  it('over stdio with metrics on (OTEL_METRICS_EXPORTER=prometheus) loads the OpenTelemetry API (the check sees a CommonJS load)', () => {
    const file = join(tempDir('loads'), 'loads.txt');
    execFileSync(process.execPath, [CLI, 'serve', '--plugin', echo()], {
      input: INITIALIZE,
      env: {
        ...recording(file),
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_METRICS_EXPORTER: 'none',
      },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .some((f) => OTEL_API.test(f)),
    ).toBe(true);
  });

  it('over HTTP loads the HTTP endpoint, and still not the OpenTelemetry API (the check sees a load)', async () => {
    const file = join(tempDir('loads'), 'loads.txt');
    const server = await startHttp(['--plugin', echo()], undefined, undefined, recording(file));
    expect(await server.stop()).not.toBeNull();
    const loads = readFileSync(file, 'utf8').split('\n');
    expect(loads.some((f) => HTTP_ENDPOINT.test(f))).toBe(true);
    expect(loads.filter((f) => OTEL_API.test(f))).toEqual([]);
  });
});
