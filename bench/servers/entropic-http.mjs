// entropic-mcp echo server over Streamable HTTP: a pure-TypeScript tool on @entropic-mcp/server (this
// workspace's, or the built dist/ folder ENTROPIC_BENCH_SERVER names: src/compare-http.mjs's "before").
import { register } from './echo-tools.mjs';
import { httpArgs } from './http-args.mjs';

const where = process.env.ENTROPIC_BENCH_SERVER;
const { McpServer } = await import(where === undefined ? '@entropic-mcp/server' : `${where}/index.js`);
const { serveHttp } = await import(
  where === undefined ? '@entropic-mcp/server/http' : `${where}/http/index.js`
);

const { port, mode } = httpArgs();

const server = new McpServer({ name: 'entropic-echo', version: '0.0.0' });
register(server);
const handle = await serveHttp(server, {
  host: '127.0.0.1',
  port,
  enableJsonResponse: mode === 'json',
  stateless: mode === 'stateless',
});
// Under valgrind (src/instructions.mjs) the event loop lags far behind: a keep-alive timer that fires late could
// close a socket the client has just sent a request on, so the client closes idle sockets first.
if (process.env.ENTROPIC_BENCH_KEEPALIVE_MS)
  handle.server.keepAliveTimeout = Number(process.env.ENTROPIC_BENCH_KEEPALIVE_MS);
process.stdout.write(`${JSON.stringify({ port: handle.server.address().port })}\n`);
process.on('SIGTERM', () => handle.close().then(() => process.exit(0)));
