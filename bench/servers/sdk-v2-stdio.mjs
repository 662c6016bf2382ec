// The official SDK v2 (@modelcontextprotocol/server 2.4.0) echo server over stdio, written as its docs show.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'sdk-v2-echo', version: '0.0.0' });
server.registerTool(
  'echo',
  { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
