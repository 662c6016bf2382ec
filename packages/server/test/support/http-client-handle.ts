/**
 * A `ClientHandle` (see support/peer.ts) over real Streamable HTTP: each message is a POST, SSE
 * bodies are read incrementally so notifications arrive before their response, and a GET stream
 * carries what the server sends on its own. Closing sends DELETE and stops the listener.
 */

import { type ServeHttpOptions, serveHttp } from '../../src/http/index.js';
import type { McpServer } from '../../src/index.js';
import type { ClientHandle, Message } from './peer.js';
import { MessageQueue } from './queue.js';

export async function connectHttp(server: McpServer, options: ServeHttpOptions = {}): Promise<ClientHandle> {
  return connectHttpAt(await serveHttp(server, options));
}

/** The same client end against any endpoint that serves Streamable HTTP (closed with the handle). */
export async function connectHttpAt(http: { url: string; close(): Promise<void> }): Promise<ClientHandle> {
  const queue = new MessageQueue();
  const aborter = new AbortController();
  let sessionId: string | undefined;
  let getOpened = false;

  const headers = (): Record<string, string> => {
    const h: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (sessionId !== undefined) {
      h['mcp-session-id'] = sessionId;
      h['mcp-protocol-version'] = '2025-11-25';
    }
    return h;
  };

  async function readSse(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data !== '') queue.push(JSON.parse(data) as Message);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted on close
    }
  }

  async function send(message: unknown): Promise<void> {
    const res = await fetch(http.url, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(message),
      signal: aborter.signal,
    });
    sessionId ??= res.headers.get('mcp-session-id') ?? undefined;
    const type = res.headers.get('content-type') ?? '';
    if (res.status === 202) await res.body?.cancel();
    else if (type.includes('text/event-stream') && res.body !== null) await readSse(res.body);
    else if (type.includes('application/json')) queue.push((await res.json()) as Message);
    else await res.body?.cancel();
    if (
      !getOpened &&
      sessionId !== undefined &&
      (message as Message).method === 'notifications/initialized'
    ) {
      getOpened = true;
      void openGet();
    }
  }

  async function openGet(): Promise<void> {
    try {
      const res = await fetch(http.url, {
        headers: { ...headers(), accept: 'text/event-stream' },
        signal: aborter.signal,
      });
      if (res.ok && res.body !== null) await readSse(res.body);
    } catch {
      // aborted on close
    }
  }

  return {
    send: (message) => send(message).catch(() => {}),
    next: () => queue.next(),
    async close() {
      if (sessionId !== undefined) {
        await fetch(http.url, { method: 'DELETE', headers: headers() }).catch(() => {});
      }
      aborter.abort();
      queue.end();
      await http.close();
    },
  };
}
