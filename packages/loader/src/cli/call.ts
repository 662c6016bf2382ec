/**
 * `entropic-mcp call PLUGIN.so TOOL [ARGS_JSON] [--config JSON] [--cwd DIR] [--isolation process|none]
 * [--timeout MS]`: one call; prints the answer envelope as JSON.
 */
import { parseArgs } from 'node:util';
import { isolationOf, parseJson, pluginPath, report, runContained, UsageError } from '../cli-shared.js';
import { loadPlugin } from '../load.js';
import type { LoadOptions } from '../types.js';

const USAGE =
  'usage: entropic-mcp call PLUGIN.so TOOL [ARGS_JSON] [--config JSON] [--cwd DIR] ' +
  '[--isolation process|none] [--timeout MS]\n';

function timeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new UsageError(`--timeout must be a positive number of ms, got "${value}"`);
  return ms;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        cwd: { type: 'string' },
        isolation: { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const [file, tool, argsText, ...extra] = positionals;
    const path = pluginPath(file, USAGE);
    if (tool === undefined) throw new UsageError(`missing TOOL\n${USAGE}`);
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const args = argsText === undefined ? {} : parseJson(argsText, 'ARGS_JSON');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new UsageError('ARGS_JSON must be a JSON object');
    }
    const isolation = isolationOf(values.isolation);
    const timeoutMs = timeoutOf(values.timeout);
    const options: LoadOptions = {
      isolation,
      ...(values.config === undefined ? {} : { config: parseJson(values.config, '--config') }),
      ...(values.cwd === undefined ? {} : { workingDir: values.cwd }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
    if (isolation === 'none') {
      const contained = runContained('call', argv);
      if (contained !== undefined) return contained;
    }
    const plugin = await loadPlugin(path, options);
    try {
      const answer = await plugin.execute(tool, args);
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return 0;
    } finally {
      await plugin.close();
    }
  } catch (error) {
    return report('call', error, USAGE);
  }
}
