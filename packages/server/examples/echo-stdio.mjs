// The smallest useful server: one `echo` tool over stdio. Used by the stdio benchmark.
import { McpServer, text } from '@entropic-mcp/server';
import { serveStdio } from '@entropic-mcp/server/stdio';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.addTool(
  {
    name: 'echo',
    description: 'Returns its text argument',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  (args) => ({ content: [text(args.text)] }),
);
await serveStdio(server);
