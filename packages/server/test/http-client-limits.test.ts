/**
 * Per-client limits over real HTTP: the sessions, open streams and connections one client (its
 * principal with auth, else its address, behind a trusted proxy the address it forwarded) may hold.
 * Clients come from distinct loopback addresses (127.0.0.2, 127.0.0.3); each refusal is a 429 naming
 * the limit and its option, and the other clients are served throughout.
 */

import { type IncomingHttpHeaders, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { waitFor } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerAuth, type HttpServerHandle, type ServeHttpOptions, serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { INIT_BODY, initSession, start } from './support/http-helpers.js';

const servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: ServeHttpOptions, setup?: (server: McpServer) => void): Promise<string> {
  const srv = await start({ ...options, allowedHosts: ['127.0.0.1'] }, setup);
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
    await waitFor(async () => (await session(url, '127.0.0.2')).status === 200, 'a freed stream');
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

  it('maxConnectionsPerClient: a request that would take one more connection in use gets 429 and a close', async () => {
    let running = 0;
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const url = await serve({ maxConnectionsPerClient: 2 }, (server) =>
      server.addTool({ name: 'hold', description: 'Answers when released' }, async () => {
        running++;
        await released;
        return { content: [{ type: 'text', text: 'done' }] };
      }),
    );
    const init = await session(url, '127.0.0.2');
    const headers = { ...V, 'mcp-session-id': init.headers['mcp-session-id'] as string };
    const call = (id: number) =>
      send(
        url,
        '127.0.0.2',
        'POST',
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold' } },
        headers,
      );
    // Two connections in use: each holds a call whose answer is still to come.
    const calls = [call(1), call(2)];
    await waitFor(() => running === 2, 'two calls running');
    const refused = await session(url, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.headers.connection).toBe('close');
    expect(message(refused).message).toBe(
      'Too Many Requests: this client already holds 2 connections in use, the most allowed (maxConnectionsPerClient)',
    );
    expect((await session(url, '127.0.0.3')).status).toBe(200);
    release();
    expect((await Promise.all(calls)).map((c) => c.status)).toEqual([200, 200]);
    await waitFor(async () => (await session(url, '127.0.0.2')).status === 200, 'freed connections');
  });

  it('maxConnectionsPerClient does not count idle keep-alive connections', async () => {
    const url = await serve({ maxConnectionsPerClient: 2 });
    const { port } = new URL(url);
    const body = JSON.stringify(INIT_BODY);
    const head =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    // Three connections of one address, each answered and kept open, idle.
    const idle = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<{ socket: Socket; answer: string }>((resolve, reject) => {
            const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.2' });
            let answer = '';
            socket.on('data', (chunk: Buffer) => {
              answer += chunk.toString();
              if (answer.includes('"jsonrpc"')) resolve({ socket, answer });
            });
            socket.once('error', reject).once('connect', () => socket.write(head + body));
          }),
      ),
    );
    expect(idle.map(({ answer }) => answer.split('\r\n')[0])).toEqual(Array(3).fill('HTTP/1.1 200 OK'));
    expect(idle.every(({ socket }) => !socket.destroyed)).toBe(true);
    // (Polled: the server may see a response close a moment after the client has read it.)
    await waitFor(async () => (await session(url, '127.0.0.2')).status === 200, 'a fourth connection served');
    expect(idle.every(({ socket }) => !socket.destroyed)).toBe(true);
    for (const { socket } of idle) socket.destroy();
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

describe('the defaults', () => {
  it('serve one SDK client with 200 calls in flight on SSE, round after round, and 64 more sessions', async () => {
    const IN_FLIGHT = 200;
    const rounds = new Map<number, { arrived: number; release(): void; all: Promise<void> }>();
    const roundOf = (n: number) => {
      let round = rounds.get(n);
      if (round === undefined) {
        let release = (): void => {};
        const all = new Promise<void>((resolve) => {
          release = resolve;
        });
        round = { arrived: 0, release, all };
        rounds.set(n, round);
      }
      return round;
    };
    // Every call of a round waits until all 200 are running: 200 SSE responses open at once.
    const mcp = new McpServer({ name: 'defaults', version: '1.0.0' }, { maxConcurrency: 256 });
    mcp.addTool(
      {
        name: 'together',
        description: 'Answers once every call of its round is running',
        inputSchema: { type: 'object', properties: { round: { type: 'number' } }, required: ['round'] },
      },
      async (args) => {
        const round = roundOf(Number(args.round));
        if (++round.arrived === IN_FLIGHT) round.release();
        await round.all;
        return { content: [{ type: 'text', text: 'ok' }] };
      },
    );
    const srv = await serveHttp(mcp, {});
    servers.push(srv);
    const client = new Client({ name: 'many-in-flight', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    try {
      // Back to back: the client's fetch keeps about twice its calls' connections open meanwhile.
      for (let n = 0; n < 3; n++) {
        const settled = await Promise.allSettled(
          Array.from({ length: IN_FLIGHT }, () =>
            client
              .callTool({ name: 'together', arguments: { round: n } }, undefined, { timeout: 120_000 })
              .catch((error) => {
                roundOf(n).release(); // a refused call ends the round's wait, so the failure shows at once
                throw error;
              }),
          ),
        );
        expect(settled.filter((s) => s.status === 'rejected').map((s) => String(s.reason))).toEqual([]);
        expect(roundOf(n).arrived).toBe(IN_FLIGHT);
      }
      // The benchmark's 64 clients on loopback: 64 sessions more from the same address.
      const ids = await Promise.all(Array.from({ length: 64 }, () => initSession(srv.url)));
      expect(new Set(ids).size).toBe(64);
    } finally {
      for (const round of rounds.values()) round.release();
      await client.close();
    }
  }, 180_000);
});
