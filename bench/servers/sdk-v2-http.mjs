// The official SDK v2 (@modelcontextprotocol/server 2.4.0 with its Node adapter @modelcontextprotocol/node)
// echo server over Streamable HTTP on node:http: a server and transport per session, or per request when
// stateless; in the modern era (2026-07-28) its `createMcpHandler` entry, as its docs show.
import http from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { announce, httpArgs } from './http-args.mjs';
import { hostSdkHttp } from './sdk-http-host.mjs';
import { echoServer } from './sdk-v2-echo.mjs';

const { port, mode } = httpArgs();
if (mode === 'modern') {
  const handle = toNodeHandler(createMcpHandler(echoServer));
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  server.listen(port, '127.0.0.1', () => announce(server));
} else {
  hostSdkHttp(NodeStreamableHTTPServerTransport, echoServer);
}
