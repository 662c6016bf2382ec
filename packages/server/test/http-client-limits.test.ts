/**
 * Per-client limits over real HTTP: the sessions, open streams and connections one client (its
 * principal with auth, else its address, behind a trusted proxy the address it forwarded) may hold.
 * Clients come from distinct loopback addresses (127.0.0.2, 127.0.0.3); each refusal is a 429 naming
 * the limit and its option, and the other clients are served throughout.
 */

import { type IncomingHttpHeaders, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, type ServeHttpOptions } from '../src/http/index.js';
import { INIT_BODY, start } from './support/http-helpers.js';

const servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: ServeHttpOptions): Promise<string> {
  const srv = await start({ ...options, allowedHosts: ['127.0.0.1'] });
  servers.push(srv);
  return srv.url;
}

interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body, or the first chunk of a stream left open (`close` ends it). */
  body: string;
  close(): void;
}

/** One request from `from`, on a connection of its own; a streaming answer is left open. */
function send(
  url: string,
  from: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        localAddress: from,
        agent: false,
        headers: {
          accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            close: () => req.destroy(),
          });
        if ((res.headers['content-type'] ?? '').includes('text/event-stream') && method === 'GET') done();
        else {
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', done);
        }
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const V = { 'mcp-protocol-version': '2025-11-25' };

async function session(url: string, from: string, headers: Record<string, string> = {}): Promise<Sent> {
  return send(url, from, 'POST', INIT_BODY, headers);
}

/** A session of `from` with its GET stream open (held until closed). */
async function openStream(url: string, from: string, headers: Record<string, string> = {}) {
  const init = await session(url, from, headers);
  expect(init.status).toBe(200);
  const id = init.headers['mcp-session-id'] as string;
  return send(url, from, 'GET', undefined, { ...headers, ...V, 'mcp-session-id': id });
}

const message = (sent: Sent) => (JSON.parse(sent.body) as { error: { code: number; message: string } }).error;

describe('per-client limits', () => {
  it('maxStreamsPerClient: the client beyond it gets 429 naming the option; others are served', async () => {
    const url = await serve({ maxStreamsPerClient: 3 });
    const held = [await openStream(url, '127.0.0.2'), await openStream(url, '127.0.0.2')];
    expect(held.map((s) => s.status)).toEqual([200, 200]);
    // The third open response: an initialize's answer is quick, the GET stays open.
    const third = await openStream(url, '127.0.0.2');
    held.push(third);
    expect(third.status).toBe(200);
    const refused = await session(url, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(message(refused)).toEqual({
      code: -32000,
      message:
        'Too Many Requests: this client already holds 3 open streams, the most allowed (maxStreamsPerClient)',
    });
    const other = await openStream(url, '127.0.0.3');
    expect(other.status).toBe(200);
    other.close();
    // A stream let go frees its place.
    held.pop()?.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await session(url, '127.0.0.2')).status).toBe(200);
    for (const s of held) s.close();
  });

  it('maxSessionsPerClient: a third session of one client is refused until one ends', async () => {
    const url = await serve({ maxSessionsPerClient: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const ok = await session(url, '127.0.0.2');
      expect(ok.status).toBe(200);
      ids.push(ok.headers['mcp-session-id'] as string);
    }
    const refused = await session(url, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(message(refused).message).toMatch(/holds 2 sessions, the most allowed \(maxSessionsPerClient\)/);
    expect((await session(url, '127.0.0.3')).status).toBe(200);
    const ended = await send(url, '127.0.0.2', 'DELETE', undefined, {
      ...V,
      'mcp-session-id': ids[0] as string,
    });
    expect(ended.status).toBe(200);
    expect((await session(url, '127.0.0.2')).status).toBe(200);
  });

  it('counts by principal with auth: two tokens from one address have a budget each', async () => {
    const [a, b] = ['token-a-0123456789abcdef', 'token-b-0123456789abcdef'];
    const url = await serve({ maxSessionsPerClient: 1, auth: bearerAuth({ tokens: [a, b] }) });
    const as = (t: string) => ({ authorization: `Bearer ${t}` });
    expect((await session(url, '127.0.0.2', as(a))).status).toBe(200);
    expect((await session(url, '127.0.0.2', as(a))).status).toBe(429);
    expect((await session(url, '127.0.0.2', as(b))).status).toBe(200);
  });

  it('maxConnectionsPerClient: a connection beyond it is answered 429 and closed', async () => {
    const url = await serve({ maxConnectionsPerClient: 2 });
    const { port } = new URL(url);
    const idle = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.2' });
            socket.once('connect', () => resolve(socket)).once('error', reject);
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 100));
    const refused = await session(url, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.headers.connection).toBe('close');
    expect(message(refused).message).toMatch(
      /holds 2 connections, the most allowed \(maxConnectionsPerClient\)/,
    );
    expect((await session(url, '127.0.0.3')).status).toBe(200);
    for (const socket of idle) socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await session(url, '127.0.0.2')).status).toBe(200);
  });

  it('behind a trusted proxy, counts the forwarded address, not the proxy', async () => {
    const url = await serve({ maxSessionsPerClient: 1, trustedProxies: ['127.0.0.2'] });
    const via = (client: string) => ({ 'x-forwarded-for': `203.0.113.9, ${client}` });
    expect((await session(url, '127.0.0.2', via('198.51.100.1'))).status).toBe(200);
    expect((await session(url, '127.0.0.2', via('198.51.100.1'))).status).toBe(429);
    expect((await session(url, '127.0.0.2', via('198.51.100.2'))).status).toBe(200);
    // An untrusted peer's X-Forwarded-For is ignored: it counts as itself.
    expect((await session(url, '127.0.0.3', via('198.51.100.3'))).status).toBe(200);
    expect((await session(url, '127.0.0.3', via('198.51.100.4'))).status).toBe(429);
  });
});
