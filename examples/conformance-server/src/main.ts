/**
 * The conformance server: `pnpm run conformance-server --port PORT [--json-response] [--stateless]`
 * serves every fixture the official conformance scenarios call on http://127.0.0.1:PORT/mcp.
 */

import { McpServer } from '@entropic-mcp/server';
import { type McpHttpHandler, serveHttp } from '@entropic-mcp/server/http';
import { addPrompts, addResources } from './catalog.js';
import { addModernTools } from './modern.js';
import { addTaskTools } from './tasks.js';
import { addTools } from './tools.js';

interface Args {
  port: number;
  jsonResponse: boolean;
  stateless: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { port: 3000, jsonResponse: false, stateless: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (arg === '--json-response') args.jsonResponse = true;
    else if (arg === '--stateless') args.stateless = true;
    else if (arg === '--port') {
      const port = Number(argv[++i]);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port needs 0-65535, got ${argv[i]}`);
      args.port = port;
    } else
      throw new Error(`unknown argument ${JSON.stringify(arg)} (use --port N, --json-response, --stateless)`);
  }
  return args;
}

export function createConformanceServer(
  closeStream: (sessionId: string, requestId: string | number) => boolean,
): McpServer {
  const server = new McpServer(
    {
      name: 'entropic-mcp-conformance',
      version: '1.0.0',
      description: 'Fixtures for the MCP conformance suite',
    },
    // The tasks scenarios expect a task-capable call to become a task at once, however quick.
    { capabilities: { subscribe: true, completions: true }, tasks: { syncWindowMs: 0 } },
  );
  addTools(server, (ctx) => ctx.sessionId !== undefined && closeStream(ctx.sessionId, ctx.requestId));
  addResources(server);
  addPrompts(server);
  addModernTools(server);
  addTaskTools(server);
  return server;
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`conformance-server: ${(error as Error).message}\n`);
    process.exit(2);
  }
  let handler: McpHttpHandler | undefined;
  const server = createConformanceServer(
    (sessionId, requestId) => handler?.session(sessionId)?.closeRequestStream(requestId) ?? false,
  );
  const handle = await serveHttp(server, {
    port: args.port,
    enableJsonResponse: args.jsonResponse,
    stateless: args.stateless,
    onError: (error) => process.stderr.write(`conformance-server: ${error.message}\n`),
  });
  handler = handle.handler;
  const mode = `${args.stateless ? 'stateless' : 'stateful'}, ${args.jsonResponse ? 'JSON' : 'SSE'} responses`;
  process.stdout.write(`conformance-server listening on ${handle.url} (${mode})\n`);
  const stop = (): void => {
    void handle.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
