/**
 * `entropic-mcp inspect PLUGIN.so [--isolation process|none] [--instances N] [--sandbox SPEC] [--json]`: load,
 * check, describe.
 */

import type { Plugin } from '@entropic-mcp/loader';
import { loadPlugin } from '@entropic-mcp/loader';
import {
  isolationOf,
  onePluginPath,
  parseCommandArgs,
  report,
  runContained,
  sandboxOf,
  UsageError,
} from '../cli-kit/shared.js';

const USAGE =
  'usage: entropic-mcp inspect PLUGIN.so [--isolation process|none] [--instances N] [--sandbox SPEC] [--json]\n';

const HELP = `${USAGE}
Loads one plugin the way \`serve\` would (every entry point resolved, the API version checked, the tool list
validated), prints what it found, and closes it. A plugin that fails to load is reported with its error code.

  PLUGIN.so          the plugin to load (a relative path is taken from the current directory)
  --isolation MODE   process (default: the plugin runs in its own host process) or none (in-process, in a
                     child Node process so a crash is still reported)
  --instances N      start N instances (1 to 256, default 1), as \`serve --instances\` would
  --sandbox SPEC     load it in this OS sandbox, as \`serve --sandbox\` would ('{read: [/srv/data]}'), and
                     show what this system enforces of it
  --json             print name, path, API version, isolation, instances, whether it uses the plugin
                     context (usesContext), its sandbox (null without one) and the full tool list (with each
                     inputSchema) as JSON instead of the table
  -h, --help         this text

Exit status: 0 loaded, 1 the plugin failed to load, 2 a usage error.

  entropic-mcp inspect ./build/echo.so
`;

function table(plugin: Plugin): string {
  const lines = [
    `name        ${plugin.name}`,
    `path        ${plugin.path}`,
    `api         ${plugin.apiVersion}`,
    `isolation   ${plugin.isolation}`,
    `instances   ${plugin.instances}`,
    `context     ${plugin.usesContext ? 'yes (entropic_mcp_server_execute_with_context: progress, cancellation, logs, structured results, the caller)' : 'no (a plain API-1 plugin)'}`,
    ...sandboxRows(plugin),
    `tools       ${plugin.tools.length}`,
  ];
  if (plugin.tools.length > 0) {
    const rows = plugin.tools.map((tool) => {
      const props = tool.inputSchema.properties;
      const args = props !== null && typeof props === 'object' ? Object.keys(props).join(',') : '';
      return [tool.name, args || '-', tool.description ?? ''] as const;
    });
    const nameWidth = Math.max(4, ...rows.map((r) => r[0].length));
    const argsWidth = Math.max(9, ...rows.map((r) => r[1].length));
    lines.push('', `  ${'TOOL'.padEnd(nameWidth)}  ${'ARGUMENTS'.padEnd(argsWidth)}  DESCRIPTION`);
    for (const [name, args, description] of rows) {
      lines.push(`  ${name.padEnd(nameWidth)}  ${args.padEnd(argsWidth)}  ${description}`.trimEnd());
    }
  }
  return `${lines.join('\n')}\n`;
}

function sandboxRows(plugin: Plugin): string[] {
  const s = plugin.sandbox;
  if (s === undefined) return [`sandbox     ${plugin.isolation === 'none' ? 'none (in-process)' : 'none'}`];
  return [
    `sandbox     ${s.summary}`,
    ...s.enforced.map((part) => `  enforced  ${part}`),
    ...s.notEnforced.map((part) => `  NOT enforced  ${part}`),
  ];
}

function instancesOf(value: string | undefined): number {
  if (value === undefined) return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 256) {
    throw new UsageError(`--instances expects a whole number from 1 to 256, got "${value}"`);
  }
  return n;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs(argv, {
      isolation: { type: 'string' },
      instances: { type: 'string' },
      sandbox: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const path = onePluginPath(positionals);
    const isolation = isolationOf(values.isolation);
    if (isolation === 'none') {
      const contained = runContained('inspect', argv);
      if (contained !== undefined) return contained;
    }
    const sandbox = sandboxOf(values.sandbox);
    const plugin = await loadPlugin(path, {
      isolation,
      instances: instancesOf(values.instances),
      ...(sandbox === undefined ? {} : { sandbox }),
    });
    try {
      const { name, apiVersion, instances, tools, usesContext } = plugin;
      const described = {
        name,
        path,
        apiVersion,
        isolation,
        instances,
        usesContext,
        sandbox: plugin.sandbox ?? null,
      };
      process.stdout.write(
        values.json ? `${JSON.stringify({ ...described, tools }, null, 2)}\n` : table(plugin),
      );
    } finally {
      await plugin.close();
    }
    return 0;
  } catch (error) {
    return report('inspect', error);
  }
}
