// An MCP server with one tool as a Cloudflare Worker: the module's fetch handler is the server's.
import { McpServer } from '@entropic-mcp/server';
import { createFetchHandler } from '@entropic-mcp/server/fetch';

const server = new McpServer({ name: 'workers-example', version: '1.0.0' });
server.addTool(
  {
    name: 'echo',
    description: 'Echoes the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
);

const handler = createFetchHandler(server);

export default {
  fetch: (request: Request): Promise<Response> => handler(request),
};
