// The official SDK v2 (@modelcontextprotocol/server 2.4.0 with its Node adapter @modelcontextprotocol/node)
// echo server over Streamable HTTP on node:http: a server and transport per session, or per request when stateless.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { announce, httpArgs, readBody } from './http-args.mjs';

const { port, mode } = httpArgs();

function echoServer() {
  const server = new McpServer({ name: 'sdk-v2-echo', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

const sessions = new Map();

async function handle(req, res) {
  const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
  if (mode === 'stateless') {
    const server = echoServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return;
  }
  const id = req.headers['mcp-session-id'];
  let transport = id ? sessions.get(id) : undefined;
  if (!transport) {
    if (id) {
      res.writeHead(404).end();
      return;
    }
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === 'json',
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => sessions.delete(transport.sessionId);
    await echoServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error) => {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  });
});
server.listen(port, '127.0.0.1', () => announce(server));
