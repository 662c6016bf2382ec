// createMcpHttpHandler mounted inside an existing node:http server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler } from '../src/http/index.js';
import {
  callEcho,
  echoServer,
  INIT_BODY,
  initSession,
  post,
  responseOf,
  sessionHeaders,
} from './support/http-helpers.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('createMcpHttpHandler inside an existing node:http server', () => {
  it('serves MCP on its path beside the application routes', async () => {
    const mcp = createMcpHttpHandler(echoServer(), { path: '/api/mcp' });
    server = createServer((req, res) => {
      if (req.url === '/health') res.end('ok');
      else mcp(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/health`)).text()).toBe('ok');
    const url = `${base}/api/mcp`;
    const sessionId = await initSession(url);
    const answer = await responseOf(await post(url, callEcho(1, 'embedded'), sessionHeaders(sessionId)));
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'embedded' }] });
    expect((await post(`${base}/mcp`, INIT_BODY)).status).toBe(404);
    await mcp.close();
    expect(mcp.sessionCount).toBe(0);
  });
});
