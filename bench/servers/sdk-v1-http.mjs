// The official SDK v1 (@modelcontextprotocol/sdk 1.32.2) echo server over Streamable HTTP on node:http,
// following its documented patterns: a server and transport per session, or per request when stateless.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { hostSdkHttp } from './sdk-http-host.mjs';

function echoServer() {
  const server = new McpServer({ name: 'sdk-v1-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

hostSdkHttp(StreamableHTTPServerTransport, echoServer);
