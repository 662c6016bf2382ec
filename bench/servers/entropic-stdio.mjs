// entropic-mcp echo server over stdio: a pure-TypeScript tool on @entropic-mcp/server.
import { McpServer } from '@entropic-mcp/server';
import { serveStdio } from '@entropic-mcp/server/stdio';

const server = new McpServer({ name: 'entropic-echo', version: '0.0.0' });
server.addTool(
  {
    name: 'echo',
    description: 'Echo the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await serveStdio(server);
