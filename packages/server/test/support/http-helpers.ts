/** Shared pieces of the HTTP tests: a real server on 127.0.0.1 and raw-request helpers. */
import { afterEach } from 'vitest';

import { type HttpServerHandle, type ServeHttpOptions, serveHttp } from '../../src/http/index.js';
import { McpServer } from '../../src/index.js';

export const INIT_BODY = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  },
};

export const BOTH = 'application/json, text/event-stream';

/** An echo server with one tool; `setup` may register more. */
export function echoServer(setup?: (server: McpServer) => void): McpServer {
  const server = new McpServer({ name: 'http-test', version: '1.0.0' });
  server.addTool(
    {
      name: 'echo',
      description: 'Echo the text back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
  );
  setup?.(server);
  return server;
}

export async function start(
  options: ServeHttpOptions = {},
  setup?: (server: McpServer) => void,
): Promise<HttpServerHandle & { mcp: McpServer }> {
  const mcp = echoServer(setup);
  const handle = await serveHttp(mcp, options);
  return Object.assign(handle, { mcp });
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Post `initialize` alone (no `notifications/initialized`) with `headers`; returns the session id. */
export async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await post(url, INIT_BODY, headers);
  if (res.status !== 200) throw new Error(`initialize answered ${res.status}`);
  const sessionId = res.headers.get('mcp-session-id');
  await res.text();
  if (sessionId === null) throw new Error('no Mcp-Session-Id');
  return sessionId;
}

/** Initialize a session (and send `notifications/initialized`); returns its id. */
export async function initSession(url: string): Promise<string> {
  const sessionId = await openSession(url);
  const done = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    sessionHeaders(sessionId),
  );
  await done.text();
  return sessionId;
}

export interface SseEvent {
  id?: string;
  data?: string;
  retry?: number;
}

/** Parse a complete SSE body into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    const event: SseEvent = {};
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'data') event.data = value;
      else if (field === 'retry') event.retry = Number(value);
    }
    events.push(event);
  }
  return events;
}

/** The events of an SSE body that carry a message (priming events and comments skipped). */
export function sseDataEvents(text: string): SseEvent[] {
  return parseSse(text).filter((e) => e.data !== undefined && e.data !== '');
}

/** The JSON-RPC messages of an SSE body (priming events skipped). */
export function sseMessages(text: string): Record<string, unknown>[] {
  return sseDataEvents(text).map((e) => JSON.parse(e.data as string) as Record<string, unknown>);
}

/** The single JSON-RPC response of a POST, whatever its content type. */
export async function responseOf(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const found = sseMessages(text).find((m) => 'result' in m || 'error' in m);
    if (found === undefined) throw new Error(`no response in SSE body: ${text}`);
    return found;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

export function sessionHeaders(sessionId: string): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
}

export function callEcho(id: number, text: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } };
}

/** The JSON-RPC error of an error reply. */
export async function errorOf(res: Response): Promise<{ code: number; message: string }> {
  const body = (await res.json()) as { error: { code: number; message: string } };
  return body.error;
}

/**
 * For one test file: a `start` whose servers are all closed after each test.
 * Call it at the top level of the file (it registers an afterEach hook).
 */
export function startClosedAfterEach(): typeof start {
  const open: Awaited<ReturnType<typeof start>>[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (...args) => {
    const srv = await start(...args);
    open.push(srv);
    return srv;
  };
}

/** How many connections the server of `srv` holds now. */
export function connections(srv: { server: import('node:http').Server }): Promise<number> {
  return new Promise((resolve, reject) =>
    srv.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** Reads a streaming body as it arrives: its text so far, `done` once it ended, and `stop` to leave. */
export function follow(res: Response): { text: () => string; done: Promise<void>; stop: () => void } {
  let text = '';
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  return { text: () => text, done, stop: () => void reader.cancel().catch(() => {}) };
}
