// An MCP server with one tool on Deno: the web-standard fetch handler served by Deno.serve.
import { McpServer } from '@entropic-mcp/server';
import { createFetchHandler } from '@entropic-mcp/server/fetch';

const server = new McpServer({ name: 'deno-example', version: '1.0.0' });
server.addTool(
  {
    name: 'echo',
    description: 'Echoes the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
);

const handler = createFetchHandler(server);
const listener = Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ hostname, port }) => console.log(`MCP endpoint: http://${hostname}:${port}/mcp`),
  },
  handler,
);

Deno.addSignalListener('SIGTERM', async () => {
  await handler.close({ graceMs: 5_000 });
  await listener.shutdown();
  Deno.exit(0);
});
