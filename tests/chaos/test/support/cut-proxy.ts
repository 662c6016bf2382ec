/**
 * A TCP proxy between the clients and HAProxy that cuts connections on cue, as a network would. A
 * `reset` cut closes both sides at once (HAProxy and the server see the client leave). A `silent` cut
 * closes only the client's side and keeps HAProxy's connection open, reading what it sends for `holdMs`
 * and passing it to no one (a client behind a dead NAT: every server write still succeeds, and reaches
 * no one); what it swallowed is kept, so a test can tell which answers went into the void.
 */

import { createServer, type Server, Socket } from 'node:net';
import { ResponseFramer } from './http-framing.js';

export type CutMode = 'reset' | 'silent';

/** What the proxy knows of one client connection when it is asked to cut. */
export interface ConnectionView {
  /** Method of the last request seen on it (GET, POST, DELETE), if one was recognised. */
  readonly method: string | undefined;
  /** An SSE answer is open on it now: its head passed and its end has not (the connection is mid-stream). */
  readonly streaming: boolean;
}

export interface CutOptions {
  readonly mode: CutMode;
  /** Cut only the connections this accepts (default: every open one). */
  readonly match?: (view: ConnectionView) => boolean;
  /** How long a `silent` cut keeps HAProxy's side open. Default 30 s. */
  readonly holdMs?: number;
}

export interface CutProxy {
  readonly port: number;
  /** The MCP endpoint through this proxy. */
  readonly endpoint: string;
  /** Connections open now. */
  readonly open: number;
  /** What HAProxy sent into silently cut connections after the cut (which no client read), as text. */
  readonly swallowed: readonly string[];
  /** Cut the matching connections; returns how many were cut. */
  cut(options: CutOptions): number;
  stop(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  method: string | undefined;
  /** The answers passing from HAProxy to the client. */
  framer: ResponseFramer;
}

const METHOD = /^(GET|POST|DELETE) /;

export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  const pairs = new Set<Pair>();
  const held = new Set<Socket>();
  const swallowed: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    const pair: Pair = { client, upstream, method: undefined, framer: new ResponseFramer() };
    pairs.add(pair);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.connect(targetPort, '127.0.0.1');
    client.on('data', (chunk: Buffer) => {
      const method = METHOD.exec(chunk.toString('latin1', 0, 8));
      if (method !== null) {
        // The clients send a request only after the last answer ended (no pipelining).
        pair.method = method[1];
        pair.framer = new ResponseFramer();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      pair.framer.feed(chunk);
      client.write(chunk);
    });
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    endpoint: `http://127.0.0.1:${port}/mcp`,
    get open() {
      return pairs.size;
    },
    swallowed,
    cut({ mode, match, holdMs = 30_000 }) {
      let cut = 0;
      for (const pair of [...pairs]) {
        if (match !== undefined && !match({ method: pair.method, streaming: pair.framer.streaming }))
          continue;
        cut++;
        pairs.delete(pair);
        if (mode === 'reset') {
          pair.client.resetAndDestroy();
          pair.upstream.resetAndDestroy();
          continue;
        }
        // Silent: HAProxy keeps a healthy connection to us; we swallow what it sends, then let go.
        const { client, upstream } = pair;
        client.removeAllListeners().on('error', () => {});
        upstream.removeAllListeners().on('error', () => upstream.destroy());
        upstream.on('data', (chunk: Buffer) => swallowed.push(chunk.toString('utf8')));
        upstream.on('close', () => held.delete(upstream));
        held.add(upstream);
        setTimeout(() => upstream.destroy(), holdMs).unref();
        client.resetAndDestroy();
      }
      return cut;
    },
    async stop() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
