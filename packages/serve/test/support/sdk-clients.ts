/**
 * The official clients of the deploy-time tests behind one small interface — SDK v1 (2025-11-25
 * session), SDK v2 in the session era and SDK v2 pinned to 2026-07-28 — each with a fetch that notes
 * which process (`X-Served-By`) took each tools/call (by its `tag` argument), and a way to wait for an
 * SDK promise that names it HUNG when it does not settle in time.
 */

import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

export type ClientKind = 'v1 legacy' | 'v2 legacy' | 'v2 modern';
export const CLIENT_KINDS: readonly ClientKind[] = ['v1 legacy', 'v2 legacy', 'v2 modern'];

export interface TestClient {
  readonly kind: ClientKind;
  /** The legacy session id, once connected (undefined in 2026-07-28). */
  readonly sessionId: string | undefined;
  /** A tools/call; `onprogress` asks for progress (so that the answer travels on an SSE stream). */
  call(name: string, args: Record<string, unknown>, onprogress?: () => void): Promise<unknown>;
  close(): Promise<void>;
}

/** Where each tagged tools/call went: tag → the `X-Served-By` of its POST's answer. */
export type ServedBy = Map<string, string>;

const RECONNECT = {
  initialReconnectionDelay: 200,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 10,
};

/** A fetch that notes the process of each tagged tools/call. */
export function recordingFetch(served: ServedBy): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"tools/call"')) {
      const tag = (JSON.parse(init.body) as { params?: { arguments?: { tag?: unknown } } }).params?.arguments
        ?.tag;
      if (typeof tag === 'string') served.set(tag, res.headers.get('x-served-by') ?? '?');
    }
    return res;
  };
}

/**
 * `res` with `seen` called when the first chunk of its body passes to the client: on a call's SSE answer,
 * that chunk is the priming event (the id a client resumes from).
 */
export function onFirstChunk(res: Response, seen: () => void): Response {
  if (res.body === null) return res;
  const watch = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      seen();
      out.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(watch), { status: res.status, headers: res.headers });
}

export async function connectClient(
  kind: ClientKind,
  endpoint: string,
  served: ServedBy,
): Promise<TestClient> {
  const url = new URL(endpoint);
  const options = { fetch: recordingFetch(served), reconnectionOptions: RECONNECT };
  const info = { name: `deploy-${kind.replace(' ', '-')}`, version: '1.0.0' };
  const request = (onprogress?: () => void) => ({
    timeout: 600_000,
    ...(onprogress === undefined ? {} : { onprogress }),
  });
  if (kind === 'v1 legacy') {
    const client = new Client(info);
    const transport = new StreamableHTTPClientTransport(url, options);
    await client.connect(transport);
    return {
      kind,
      get sessionId() {
        return transport.sessionId;
      },
      call: (name, args, onprogress) =>
        client.callTool({ name, arguments: args }, CallToolResultSchema, request(onprogress)),
      close: () => client.close(),
    };
  }
  const client = new ClientV2(info, {
    versionNegotiation: kind === 'v2 modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' },
  });
  const transport = new HttpV2(url, options);
  await client.connect(transport);
  return {
    kind,
    get sessionId() {
      return transport.sessionId;
    },
    call: (name, args, onprogress) => client.callTool({ name, arguments: args }, request(onprogress)),
    close: () => client.close(),
  };
}

export type Settled =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: Error };

/** How `promise` settles; an Error naming `what` as HUNG when it has not within `ms`. */
export async function settleWithin(promise: Promise<unknown>, ms: number, what: string): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`HUNG: ${what} never settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({
          ok: false,
          error: error instanceof Error ? error : new Error(String(error)),
        }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
