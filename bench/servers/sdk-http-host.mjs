// node:http hosting shared by the SDK v1 and v2 echo servers, as their docs show it: a server and transport
// per session (sessions found by Mcp-Session-Id), or a fresh pair per request when stateless.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { announce, httpArgs, readBody } from './http-args.mjs';

/** `Transport` is the SDK's Streamable HTTP server transport class; `echoServer()` makes one SDK server. */
export function hostSdkHttp(Transport, echoServer) {
  const { port, mode } = httpArgs();
  const sessions = new Map();

  async function handle(req, res) {
    const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
    if (mode === 'stateless') {
      const server = echoServer();
      const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: false });
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
      transport = new Transport({
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
}
