/**
 * `entropic-mcp call PLUGIN.so TOOL [ARGS_JSON] [--config JSON] [--cwd DIR] [--isolation process|none]
 * [--timeout MS] [--sandbox SPEC] [--no-validate]`: one call, checked first like `serve` would check it; prints
 * the answer.
 */

import type { LoadOptions } from '@entropic-mcp/loader';
import { loadPlugin } from '@entropic-mcp/loader';
import { checkCall } from '../cli-kit/call-check.js';
import {
  isolationOf,
  parseCommandArgs,
  parseJson,
  pluginPath,
  report,
  runContained,
  sandboxOf,
  UsageError,
} from '../cli-kit/shared.js';

const USAGE =
  'usage: entropic-mcp call PLUGIN.so TOOL [ARGS_JSON] [--config JSON] [--cwd DIR] ' +
  '[--isolation process|none] [--timeout MS] [--sandbox SPEC] [--no-validate]\n';

const HELP = `${USAGE}
Loads one plugin, calls one of its tools and prints the plugin's answer (result and directives) as JSON.
No server and no MCP client are involved.

  PLUGIN.so              the plugin to load (a relative path is taken from the current directory)
  TOOL                   the tool's name as the plugin lists it (echo, not echo.echo)
  ARGS_JSON              the arguments, one JSON object (default {})
  --config JSON          JSON handed to the plugin's configure entry point after loading
  --cwd DIR              working directory handed to the plugin (default: the current directory)
  --isolation MODE       process (default: the plugin runs in its own host process) or none (in-process,
                         in a child Node process so a crash is still reported)
  --timeout MS           time limit for the call, in milliseconds
  --sandbox SPEC         run it in this OS sandbox, as \`serve --sandbox\` would ('{read: [/srv/data]}'); what
                         the sandbox refuses, the plugin sees as an error (EACCES, EPERM)
  --no-validate          skip the checks below and hand the call to the plugin as it is
  -h, --help             this text

Before calling, the tool name must be one the plugin lists and the arguments must match the tool's
inputSchema, as \`serve\` checks them for a client; otherwise the command names the tool or the field and
exits 1. Exit status: 0 the plugin answered, 1 a refused call or a plugin failure, 2 a usage error.

  entropic-mcp call ./build/echo.so echo '{"text":"hi"}'
`;

function timeoutOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new UsageError(`--timeout must be a positive number of ms, got "${value}"`);
  return ms;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs(argv, {
      config: { type: 'string' },
      cwd: { type: 'string' },
      isolation: { type: 'string' },
      timeout: { type: 'string' },
      sandbox: { type: 'string' },
      'no-validate': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const [file, tool, argsText, ...extra] = positionals;
    const path = pluginPath(file);
    if (tool === undefined) throw new UsageError('missing TOOL');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const args = argsText === undefined ? {} : parseJson(argsText, 'ARGS_JSON');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new UsageError('ARGS_JSON must be a JSON object');
    }
    const isolation = isolationOf(values.isolation);
    const timeoutMs = timeoutOf(values.timeout);
    const sandbox = sandboxOf(values.sandbox);
    const options: LoadOptions = {
      isolation,
      ...(values.config === undefined ? {} : { config: parseJson(values.config, '--config') }),
      ...(values.cwd === undefined ? {} : { workingDir: values.cwd }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(sandbox === undefined ? {} : { sandbox }),
    };
    if (isolation === 'none') {
      const contained = runContained('call', argv);
      if (contained !== undefined) return contained;
    }
    const plugin = await loadPlugin(path, options);
    try {
      if (values['no-validate'] !== true)
        await checkCall(plugin.name, plugin.tools, tool, args as Record<string, unknown>);
      const answer = await plugin.execute(tool, args);
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return 0;
    } finally {
      await plugin.close();
    }
  } catch (error) {
    return report('call', error);
  }
}
