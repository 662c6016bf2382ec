// An MCP server with one tool on Bun: the web-standard fetch handler served by Bun.serve.
import { McpServer } from '@entropic-mcp/server';
import { createFetchHandler } from '@entropic-mcp/server/fetch';

const server = new McpServer({ name: 'bun-example', version: '1.0.0' });
server.addTool(
  {
    name: 'echo',
    description: 'Echoes the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
);

const handler = createFetchHandler(server);
const listener = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  // Bun closes a connection idle for 10 s by default; an SSE stream is idle up to the 15 s keep-alive.
  idleTimeout: 60,
  fetch: handler,
});
console.log(`MCP endpoint: http://${listener.hostname}:${listener.port}/mcp`);

process.on('SIGTERM', async () => {
  await handler.close({ graceMs: 5_000 });
  await listener.stop();
  process.exit(0);
});
