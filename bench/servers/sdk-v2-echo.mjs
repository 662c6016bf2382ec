// The echo tool as the official SDK v2 (@modelcontextprotocol/server 2.4.0) registers it: one factory
// shared by the stdio and HTTP benchmark servers.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function echoServer() {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}
