/**
 * A raw Streamable HTTP client for the scale-out tests, for what the SDK clients hide: exact SSE event
 * ids, `Last-Event-ID`, status codes and the `X-Served-By` header HAProxy adds. One new connection per
 * request, so that HAProxy's round robin spreads them.
 */

import { Agent, type IncomingHttpHeaders, request } from 'node:http';

export const LEGACY_VERSION = '2025-11-25';
const agent = new Agent({ keepAlive: false });

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface SseEvent {
  readonly id?: string;
  readonly data: string;
}

/** An open SSE answer: events as they arrive; `closed` settles when the connection ends. */
export interface SseReader {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly events: SseEvent[];
  readonly closed: Promise<void>;
  close(): void;
}

function headersFor(session: string | undefined, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...extra,
  };
  if (session !== undefined) {
    headers['mcp-session-id'] = session;
    headers['mcp-protocol-version'] ??= LEGACY_VERSION;
  }
  return headers;
}

/** One request whose whole answer is read (rejects when it is not complete within `timeoutMs`). */
export function rawRequest(
  endpoint: string,
  method: string,
  body: unknown,
  session?: string,
  extra: Record<string, string> = {},
  timeoutMs?: number,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method, headers: headersFor(session, extra), agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (timeoutMs !== undefined) {
      const timer = setTimeout(
        () => req.destroy(new Error(`${method} got no complete answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      req.once('close', () => clearTimeout(timer));
    }
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A request whose answer is read as SSE while it streams (a GET, or a POST answered with SSE). */
export function openSse(
  endpoint: string,
  method: 'GET' | 'POST',
  session: string,
  options: { body?: unknown; lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<SseReader> {
  const extra: Record<string, string> = { ...options.headers };
  if (options.lastEventId !== undefined) extra['last-event-id'] = options.lastEventId;
  if (method === 'GET') extra.accept = 'text/event-stream';
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method, headers: headersFor(session, extra), agent }, (res) => {
      const events: SseEvent[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const event = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event !== undefined) events.push(event);
        }
      });
      const closed = new Promise<void>((done) => {
        res.once('close', () => done());
        res.once('error', () => done());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        closed,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

/** One SSE event block (the text between two blank lines): its id and data; undefined for a comment. */
export function parseEvent(text: string): SseEvent | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (id === undefined && data.length === 0) return undefined;
  return id === undefined ? { data: data.join('\n') } : { id, data: data.join('\n') };
}

/** The initialize request of a raw legacy session. */
const INITIALIZE = {
  protocolVersion: LEGACY_VERSION,
  capabilities: {},
  clientInfo: { name: 'raw', version: '1' },
};

/** A legacy session opened through `endpoint` (initialize, then initialized); returns its id. */
export async function openLegacySession(
  endpoint: string,
  extra: Record<string, string> = {},
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  const body = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { ...INITIALIZE, capabilities } };
  const init = await rawRequest(endpoint, 'POST', body, undefined, extra);
  const session = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof session !== 'string')
    throw new Error(`initialize failed: ${init.status} ${init.body}`);
  const ack = await rawRequest(
    endpoint,
    'POST',
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    session,
    extra,
  );
  if (ack.status !== 202) throw new Error(`notifications/initialized failed: ${ack.status} ${ack.body}`);
  return session;
}

/** A tools/call in a legacy session; the answer's JSON-RPC message (SSE or JSON) and status. */
export async function callTool(
  endpoint: string,
  session: string | undefined,
  id: number,
  name: string,
  args: Record<string, unknown> = {},
  extra: Record<string, string> = {},
  timeoutMs?: number,
): Promise<RawAnswer & { message: Record<string, unknown> | undefined }> {
  const answer = await rawRequest(
    endpoint,
    'POST',
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
    session,
    extra,
    timeoutMs,
  );
  return { ...answer, message: lastMessage(answer.body) };
}

/** The last JSON-RPC message of a JSON or SSE body. */
export function lastMessage(body: string): Record<string, unknown> | undefined {
  const texts = body.trimStart().startsWith('{')
    ? [body]
    : body
        .split('\n')
        .filter((l) => l.startsWith('data:') && l.length > 6)
        .map((l) => l.slice(5));
  const last = texts.at(-1);
  return last === undefined ? undefined : (JSON.parse(last) as Record<string, unknown>);
}

export const MODERN_VERSION = '2026-07-28';
/** The client capabilities of a 2026-07-28 request that takes tasks (and can answer elicitations). */
export const TASKS_CLIENT = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * A 2026-07-28 request: the `_meta` envelope declaring `capabilities`, and the routing headers
 * (`Mcp-Method`, and `Mcp-Name` for tools/call and the task methods). The answer and its message.
 */
export async function modernRequest(
  endpoint: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = TASKS_CLIENT,
): Promise<RawAnswer & { message: Record<string, unknown> | undefined }> {
  const name = method === 'tools/call' ? params.name : params.taskId;
  const extra: Record<string, string> = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
  if (typeof name === 'string') extra['mcp-name'] = name;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  };
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
  const answer = await rawRequest(endpoint, 'POST', body, undefined, extra);
  return { ...answer, message: lastMessage(answer.body) };
}
