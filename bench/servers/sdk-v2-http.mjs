// The official SDK v2 (@modelcontextprotocol/server 2.4.0 with its Node adapter @modelcontextprotocol/node)
// echo server over Streamable HTTP on node:http: a server and transport per session, or per request when stateless.
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { hostSdkHttp } from './sdk-http-host.mjs';

function echoServer() {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

hostSdkHttp(NodeStreamableHTTPServerTransport, echoServer);
