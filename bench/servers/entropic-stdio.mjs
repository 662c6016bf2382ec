// entropic-mcp echo server over stdio: a pure-TypeScript tool on @entropic-mcp/server.
import { McpServer } from '@entropic-mcp/server';
import { serveStdio } from '@entropic-mcp/server/stdio';
import { register } from './echo-tools.mjs';

const server = new McpServer({ name: 'entropic-echo', version: '0.0.0' });
register(server);
await serveStdio(server);
