/** What `serve` prints on stderr once it is ready: the plugins, their tools, and how to connect. */

import type { Plugin } from '@entropic-mcp/loader';
import type { ServeTransport } from '../config/args.js';
import { isLoopback } from '../config/loopback.js';

export interface BannerInput {
  readonly plugins: readonly Plugin[];
  /** `--tools-module` files registered beside the plugins. */
  readonly toolsModules?: readonly string[];
  /** One line per plugin that failed to load (only with --keep-going). */
  readonly failures: readonly string[];
  readonly root: string;
  readonly transport: ServeTransport;
  /** The HTTP endpoint, when serving HTTP. */
  readonly url?: string;
  /** How HTTP callers authenticate, when --auth-* is on. */
  readonly auth?: string;
  /** The command that starts this same server over stdio: [command, ...args]. */
  readonly stdioCommand: readonly string[];
  /** The key used in the client config's `mcpServers`. */
  readonly serverName?: string;
}

/** A client config (the `mcpServers` form most MCP clients read) that reaches this server. */
export function clientConfig(input: BannerInput): Record<string, unknown> {
  const name = input.serverName ?? 'entropic';
  const [command, ...args] = input.stdioCommand;
  const entry = input.url !== undefined ? { type: 'http', url: input.url } : { command, args };
  return { mcpServers: { [name]: entry } };
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** How to reach this server from MCP Inspector: one line per way (browser UI, command line). */
export function inspectorLines(input: BannerInput): string[] {
  if (input.url !== undefined) {
    return [
      `MCP Inspector, browser UI:   npx -y @modelcontextprotocol/inspector  (Transport Type "Streamable HTTP", URL ${input.url})`,
      `MCP Inspector, command line: npx -y @modelcontextprotocol/inspector --cli ${input.url} --transport http --method tools/list`,
    ];
  }
  return [`MCP Inspector: npx -y @modelcontextprotocol/inspector ${input.stdioCommand.map(quote).join(' ')}`];
}

/** An isolated plugin's sandbox: what it allows, and what this system does not enforce of it. */
function sandboxLines(p: Plugin, indent: string): string[] {
  if (p.sandbox === undefined) return [`${indent}sandbox: none`];
  const lines = [`${indent}sandbox: ${p.sandbox.summary}`];
  if (p.sandbox.notEnforced.length > 0)
    lines.push(`${indent}warning: not enforced: ${p.sandbox.notEnforced.join('; ')}`);
  return lines;
}

export function formatBanner(input: BannerInput): string {
  const tools = input.plugins.reduce((n, p) => n + p.tools.length, 0);
  const lines = [
    `entropic-mcp serve: ${input.plugins.length} plugin(s), ${tools} tool(s); working directory ${input.root}`,
  ];
  const width = Math.max(0, ...input.plugins.map((p) => p.name.length));
  for (const p of input.plugins) {
    const count = `${p.tools.length} tool${p.tools.length === 1 ? '' : 's'}`;
    lines.push(
      `  ${p.name.padEnd(width)}  ${count.padEnd(8)}  ${p.isolation === 'none' ? 'in-process' : 'isolated'}${p.instances > 1 ? ` ×${p.instances}` : ''}  ${p.path}`,
    );
    if (p.isolation !== 'none') lines.push(...sandboxLines(p, ' '.repeat(width + 4)));
  }
  for (const file of input.toolsModules ?? []) lines.push(`  tools module  ${file}`);
  for (const failure of input.failures) lines.push(`  FAILED (skipped by --keep-going) ${failure}`);
  const inProcess = input.plugins.filter((p) => p.isolation === 'none').map((p) => p.name);
  if (input.transport.kind === 'stdio' && inProcess.length > 0) {
    lines.push(
      `warning: ${inProcess.join(', ')} run(s) in-process while MCP travels over stdin/stdout: their stdout ` +
        'goes to stderr and their stdin reads /dev/null, but a crash or hang in one ends the server; prefer ' +
        '--isolation process for plugins that may fail',
    );
  }
  if (input.auth !== undefined) lines.push(input.auth);
  else if (input.transport.kind === 'http' && !isLoopback(input.transport.host)) {
    lines.push(
      `warning: bound to ${input.transport.host}, reachable from other machines, with no authentication; ` +
        'turn it on with --auth-token-file FILE (fixed tokens) or --auth-jwks URL --auth-issuer ISS ' +
        '--auth-audience AUD (JWTs from your authorization server)',
    );
  }
  lines.push(
    input.url !== undefined ? `listening on ${input.url} (Streamable HTTP)` : 'serving MCP on stdin/stdout',
    '',
    'client config:',
    JSON.stringify(clientConfig(input), null, 2),
    '',
    ...inspectorLines(input),
  );
  if (input.url !== undefined)
    lines.push('Ctrl+C (SIGINT) or SIGTERM stops the server and closes the plugins.');
  lines.push('');
  return lines.join('\n');
}
