// A throwaway consumer project that imports the built @entropic-mcp/server, compiled with `tsc --strict`.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_ROOT = resolve(SERVER_ROOT, '../..');
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/** Packages the consumer "installed": linked from where this repository has them. */
const LINKS = {
  '@entropic-mcp/server': SERVER_ROOT,
  '@types/node': join(REPO_ROOT, 'node_modules/@types/node'),
  zod: join(SERVER_ROOT, 'node_modules/zod'),
  arktype: join(SERVER_ROOT, 'node_modules/arktype'),
  valibot: join(SERVER_ROOT, 'node_modules/valibot'),
  '@valibot/to-json-schema': join(SERVER_ROOT, 'node_modules/@valibot/to-json-schema'),
  // The testing examples connect the official SDK clients in memory.
  '@modelcontextprotocol/sdk': join(SERVER_ROOT, 'node_modules/@modelcontextprotocol/sdk'),
  '@modelcontextprotocol/client': join(SERVER_ROOT, 'node_modules/@modelcontextprotocol/client'),
  vitest: join(REPO_ROOT, 'node_modules/vitest'),
  // The README's telemetry example registers an OpenTelemetry SDK beside the server.
  ...Object.fromEntries(
    ['api', 'sdk-trace-node', 'sdk-metrics', 'exporter-trace-otlp-proto', 'exporter-metrics-otlp-proto'].map(
      (name) => [`@opentelemetry/${name}`, join(SERVER_ROOT, `node_modules/@opentelemetry/${name}`)],
    ),
  ),
};

/** Write `files` (name → source) into a new project directory; returns its path. */
export function consumerProject(files) {
  const dir = mkdtempSync(join(tmpdir(), 'entropic-consumer-'));
  for (const [name, target] of Object.entries(LINKS)) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', type: 'module', private: true }),
  );
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
      skipLibCheck: true,
    },
    include: Object.keys(files),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  return dir;
}

/** Runs tsc in this process and reports the CPU time it used on stderr (last line). */
const CPU_WRAPPER = `process.on('exit', () => {
  const u = process.cpuUsage();
  process.stderr.write('\\ncpu-ms: ' + (u.user + u.system) / 1000 + '\\n');
});
process.argv.splice(1, 0, 'tsc');
require(${JSON.stringify(TSC)});`;

/** Run `tsc --strict --noEmit` in `dir`: its exit code, output, wall time and CPU time (user + system). */
export function runTsc(dir, extra = []) {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ['-e', CPU_WRAPPER, '--', '-p', dir, '--strict', '--noEmit', ...extra],
    {
      encoding: 'utf8',
    },
  );
  const cpu = /\ncpu-ms: ([\d.]+)\n$/.exec(run.stderr);
  const stderr = cpu === null ? run.stderr : run.stderr.slice(0, cpu.index);
  return {
    code: run.status,
    output: `${run.stdout}${stderr}`,
    wallMs: performance.now() - started,
    cpuMs: cpu === null ? Number.NaN : Number(cpu[1]),
  };
}
