// entropic-mcp echo server over Streamable HTTP: a pure-TypeScript tool on @entropic-mcp/server.
import { McpServer } from '@entropic-mcp/server';
import { serveHttp } from '@entropic-mcp/server/http';
import { register } from './echo-tools.mjs';
import { httpArgs } from './http-args.mjs';

const { port, mode } = httpArgs();

const server = new McpServer({ name: 'entropic-echo', version: '0.0.0' });
register(server);
const handle = await serveHttp(server, {
  host: '127.0.0.1',
  port,
  enableJsonResponse: mode === 'json',
  stateless: mode === 'stateless',
});
process.stdout.write(`${JSON.stringify({ port: handle.server.address().port })}\n`);
process.on('SIGTERM', () => handle.close().then(() => process.exit(0)));
