/** `entropic-mcp verify-plugin PLUGIN.so [--json]`: a plugin library's symbols against the ABI lock, without loading it. */

import { checkSymbols, type SymbolVerdict, symbolsOk } from '@entropic-mcp/loader/internal';
import { onePluginPath, parseCommandArgs, report } from '../cli-kit/shared.js';

const USAGE = 'usage: entropic-mcp verify-plugin PLUGIN.so [--json]\n';

const HELP = `${USAGE}
Reads the plugin library's dynamic symbols (it is not loaded: none of its code runs) and checks them against
the ABI lock of @entropic-mcp/abi-headers: every entry point the current plugin API version requires must be
exported as a function; the optional entry points (the plugin context) are reported when the library exports
them; a library that needs an entropic_* function from elsewhere (the engine's own, which no loader provides)
fails, as loading it would. For the signatures themselves, build with -g and run \`entropic-abi verify-plugin\`.

  PLUGIN.so    the plugin library (a relative path is taken from the current directory)
  --json       print the verdict as JSON
  -h, --help   this text

Exit status: 0 the symbols match, 1 they do not (or the file is not a shared library), 2 a usage error.
`;

function lines(path: string, v: SymbolVerdict): string[] {
  const exported =
    v.required.length - v.missing.length - v.notFunctions.filter((n) => v.required.includes(n)).length;
  const out = [
    `${path}: ${exported} of ${v.required.length} entry points of plugin API ${v.apiVersion} exported`,
  ];
  out.push(
    v.optional.length > 0
      ? `• plugin context: yes (${v.optional.join(', ')})`
      : '• plugin context: no (a plain API-1 plugin)',
  );
  if (v.missing.length > 0) out.push(`✖ missing entry points: ${v.missing.join(', ')}`);
  for (const name of v.notFunctions) out.push(`✖ ${name} is exported, but not as a function`);
  for (const name of v.engineCalls) {
    out.push(
      `✖ needs ${name}, which no entropic MCP loader provides: loading fails with "undefined symbol: ${name}"`,
    );
  }
  for (const { name, near } of v.unknown) {
    out.push(`• exports ${name}, which the lock does not know${near ? ` (did you mean \`${near}\`?)` : ''}`);
  }
  out.push(
    symbolsOk(v) ? 'verify-plugin: OK' : 'verify-plugin: FAILED — the plugin does not match the ABI lock',
  );
  return out;
}

export async function run(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs(argv, {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const path = onePluginPath(positionals);
    const verdict = checkSymbols(path);
    const ok = symbolsOk(verdict);
    if (values.json) process.stdout.write(`${JSON.stringify({ path, ok, ...verdict }, null, 2)}\n`);
    else (ok ? process.stdout : process.stderr).write(`${lines(path, verdict).join('\n')}\n`);
    return ok ? 0 : 1;
  } catch (error) {
    return report('verify-plugin', error);
  }
}
