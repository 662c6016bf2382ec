// Streamable HTTP: security defaults (binding, Host/Origin, limits).

import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callEcho,
  connections,
  INIT_BODY,
  initSession,
  post,
  responseOf,
  sessionHeaders,
  start,
} from './support/http-helpers.js';

type Srv = Awaited<ReturnType<typeof start>>;
const open: Srv[] = [];
async function serve(...args: Parameters<typeof start>): Promise<Srv> {
  const srv = await start(...args);
  open.push(srv);
  return srv;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A raw request with full control over Host and body (fetch forbids setting Host). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Streamable HTTP: security defaults', () => {
  it('binds to 127.0.0.1 by default', async () => {
    const srv = await serve();
    expect(new URL(srv.url).hostname).toBe('127.0.0.1');
  });

  it('403 for a foreign Host (DNS rebinding) and for a foreign Origin; loopback names pass', async () => {
    const srv = await serve();
    const port = new URL(srv.url).port;
    const body = JSON.stringify(INIT_BODY);
    const evilHost = await raw(srv.url, 'POST', { ...JSON_HEADERS, host: 'evil.example.com' }, body);
    expect(evilHost.status).toBe(403);
    expect(evilHost.body).toMatch(/Host/);
    const evilOrigin = await raw(
      srv.url,
      'POST',
      { ...JSON_HEADERS, origin: 'http://evil.example.com' },
      body,
    );
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body).toMatch(/Origin/);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const ok = await raw(srv.url, 'POST', { ...JSON_HEADERS, host, origin: `http://${host}` }, body);
      expect(ok.status).toBe(200);
    }
  });

  it('allowedHosts and allowedOrigins replace the loopback defaults', async () => {
    const srv = await serve({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    const body = JSON.stringify(INIT_BODY);
    const good = await raw(
      srv.url,
      'POST',
      { ...JSON_HEADERS, host: 'mcp.example.com', origin: 'https://app.example.com' },
      body,
    );
    expect(good.status).toBe(200);
    const loopback = await raw(srv.url, 'POST', JSON_HEADERS, body);
    expect(loopback.status).toBe(403);
    const otherOrigin = await raw(
      srv.url,
      'POST',
      { ...JSON_HEADERS, host: 'mcp.example.com', origin: 'https://evil.example.com' },
      body,
    );
    expect(otherOrigin.status).toBe(403);
  });

  it('413 for a 5 MiB body; the server keeps serving', async () => {
    const srv = await serve();
    const sessionId = await initSession(srv.url);
    const big = JSON.stringify({ ...callEcho(1, 'x'.repeat(5 * 1024 * 1024)) });
    const res = await raw(srv.url, 'POST', { ...JSON_HEADERS, ...sessionHeaders(sessionId) }, big);
    expect(res.status).toBe(413);
    expect(res.body).toMatch(/exceeds 4194304 bytes/);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(
        srv.url,
        { method: 'POST', headers: { ...JSON_HEADERS, ...sessionHeaders(sessionId) } },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', () => resolve(413));
      for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1024 * 1024, 0x20));
      req.end();
      req.on('timeout', reject);
    });
    expect(chunked).toBe(413);
    const after = await post(srv.url, callEcho(2, 'still here'), sessionHeaders(sessionId));
    expect((await responseOf(after)).result).toBeDefined();
  });

  it('431 for an oversized header block', async () => {
    const srv = await serve({ maxHeaderSize: 4096 });
    const res = await raw(
      srv.url,
      'POST',
      { ...JSON_HEADERS, 'x-big': 'y'.repeat(8000) },
      JSON.stringify(INIT_BODY),
    );
    expect(res.status).toBe(431);
  });

  it('error bodies carry no stack traces or paths', async () => {
    const srv = await serve();
    const res = await raw(srv.url, 'POST', JSON_HEADERS, '{bad json');
    expect(res.status).toBe(400);
    expect(res.body).not.toMatch(/at |\/work\/|node_modules|\.ts/);
  });

  it('200 idle sockets do not stop it serving others; the headers timeout closes them, silent ones too', async () => {
    const srv = await serve({ headersTimeout: 2000, requestTimeout: 4000 });
    const { port } = new URL(srv.url);
    const sockets: Socket[] = [];
    let closedByServer = 0;
    let timedOut = 0;
    await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<void>((resolve, reject) => {
            const s = connect(Number(port), '127.0.0.1', () => resolve());
            s.on('error', reject);
            s.on('close', () => closedByServer++);
            s.on('data', (d: Buffer) => {
              if (d.toString().startsWith('HTTP/1.1 408')) timedOut++;
            });
            // Half start a request and stall; half never send a byte.
            if (sockets.length % 2 === 0) s.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
            else s.resume();
            sockets.push(s);
          }),
      ),
    );
    const sessionId = await initSession(srv.url);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map(async (i) =>
        responseOf(await post(srv.url, callEcho(i, `t${i}`), sessionHeaders(sessionId))),
      ),
    );
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5]);
    await waitFor(() => closedByServer >= 200, 'the server to close every idle socket');
    expect(timedOut).toBe(200);
    expect(closedByServer).toBe(200);
    for (const s of sockets) s.destroy();
  });

  it('maxConnections drops connections beyond the limit', async () => {
    const srv = await serve({ maxConnections: 5, headersTimeout: 20_000 });
    const { port } = new URL(srv.url);
    const held = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(port), '127.0.0.1', () => resolve(s));
            s.write('POST /mcp HTTP/1.1\r\n');
          }),
      ),
    );
    await waitFor(async () => (await connections(srv)) === 5, 'the five connections to be held');
    await expect(post(srv.url, INIT_BODY)).rejects.toThrow();
    for (const s of held) s.destroy();
    await waitFor(async () => (await connections(srv)) === 0, 'the held connections to be let go');
    const res = await post(srv.url, INIT_BODY);
    expect(res.status).toBe(200);
  });

  it('bearer hook: 401 with WWW-Authenticate naming the RFC 9728 metadata, which is served', async () => {
    const srv = await serve(
      {
        auth: {
          authenticate: (req) => {
            const header = req.headers.authorization;
            if (header === 'Bearer good') return { token: 'good', scopes: [], subject: 'alice', claims: {} };
            if (header === 'Bearer weak')
              throw Object.assign(new Error('scope'), { status: 403, scope: 'tools:call' });
            throw new Error('no token');
          },
          resourceMetadata: {
            authorization_servers: ['https://auth.example.com'],
            scopes_supported: ['tools:call'],
          },
        },
      },
      (mcp) =>
        mcp.addTool(
          { name: 'whoami', description: 'auth info', inputSchema: { type: 'object' } },
          (_args, ctx) => ({
            content: [{ type: 'text', text: JSON.stringify(ctx.auth) }],
          }),
        ),
    );
    const anonymous = await post(srv.url, INIT_BODY);
    expect(anonymous.status).toBe(401);
    const challenge = anonymous.headers.get('www-authenticate') ?? '';
    const origin = new URL(srv.url).origin;
    expect(challenge).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    const badToken = await post(srv.url, INIT_BODY, { authorization: 'Bearer nope' });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const weak = await post(srv.url, INIT_BODY, { authorization: 'Bearer weak' });
    expect(weak.status).toBe(403);
    expect(weak.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="tools:call"/);

    const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: srv.url,
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['tools:call'],
    });

    const init = await post(srv.url, INIT_BODY, { authorization: 'Bearer good' });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const call = await post(
      srv.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      { ...sessionHeaders(sessionId), authorization: 'Bearer good' },
    );
    const result = (await responseOf(call)).result as { content: { text: string }[] };
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual({
      token: 'good',
      scopes: [],
      subject: 'alice',
      claims: {},
    });
  });

  it('CORS is off by default and, when on, exposes Mcp-Session-Id', async () => {
    const plain = await serve();
    const res = await post(plain.url, INIT_BODY, { origin: 'http://localhost:3000' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.text();

    const withCors = await serve({ cors: { origins: ['http://localhost:3000'] } });
    const preflight = await fetch(withCors.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Mcp-Session-Id/);
    const init = await post(withCors.url, INIT_BODY, { origin: 'http://localhost:3000' });
    expect(init.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(init.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/);
    await init.text();
  });
});
