// The SSE answer to a POST holds its head back briefly: an answer that comes within the hold leaves in one
// response with a Content-Length; a slower one still gets its head and priming event early.
import { describe, expect, it } from 'vitest';
import { type EventStore, MemoryEventStore } from '../src/http/index.js';
import type { McpServer } from '../src/index.js';
import {
  BOTH,
  initSession,
  parseSse,
  post,
  sessionHeaders,
  sseMessages,
  startClosedAfterEach,
} from './support/http-helpers.js';

const serve = startClosedAfterEach();

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

/** A tool that answers from a later event-loop turn than its request (like a plugin in another process). */
function addLater(mcp: McpServer): void {
  mcp.addTool(
    { name: 'later', description: 'answers on the next turn' },
    () =>
      new Promise((resolve) =>
        setImmediate(() => resolve({ content: [{ type: 'text', text: 'next turn' }] })),
      ),
  );
}

/** A tool that answers only once `release` was called; `started` resolves when it runs. */
function gatedTool(mcp: McpServer): { started: Promise<void>; release: () => void } {
  let release = (): void => {};
  let markStarted = (): void => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  mcp.addTool({ name: 'gated', description: 'answers when the test says so' }, async () => {
    markStarted();
    await gate;
    return { content: [{ type: 'text', text: 'released' }] };
  });
  return { started, release: () => release() };
}

/** POST a call and read its stream's first chunk while the tool is still running. */
async function firstChunk(url: string, sessionId: string, id: number) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: BOTH, ...sessionHeaders(sessionId) },
    body: JSON.stringify(call(id, 'gated')),
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  return { res, reader, first };
}

async function rest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
  }
}

/** An event store whose appends settle later, as a networked store's do. */
function asyncStore(): EventStore {
  const memory = new MemoryEventStore();
  return {
    append: async (streamId, data, options) => memory.append(streamId, data, options),
    after: async (id) => memory.after(id),
    forget: (prefix) => memory.forget(prefix),
  };
}

describe('Streamable HTTP: the head of an SSE answer', () => {
  it('waits for an answer produced on a later turn: one response with a Content-Length (default hold)', async () => {
    const srv = await serve({}, addLater);
    const sessionId = await initSession(srv.url);
    const res = await post(srv.url, call(5, 'later'), sessionHeaders(sessionId));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const events = parseSse(text);
    expect(events[0]?.data).toBe(''); // the priming event still leads: resumption stays possible
    expect(events[0]?.id).toBeTruthy();
    expect(sseMessages(text)).toMatchObject([{ id: 5, result: { content: [{ text: 'next turn' }] } }]);
  });

  it('sends the head and the priming event of a slow request once the hold ran out', async () => {
    let gate: ReturnType<typeof gatedTool> | undefined;
    const srv = await serve({ sseHeadHoldMs: 20 }, (mcp) => {
      gate = gatedTool(mcp);
    });
    const sessionId = await initSession(srv.url);
    const { res, reader, first } = await firstChunk(srv.url, sessionId, 6);
    expect(res.headers.get('content-length')).toBeNull();
    const priming = parseSse(first);
    expect(priming).toHaveLength(1);
    expect(priming[0]?.data).toBe('');
    gate?.release();
    expect(sseMessages(first + (await rest(reader)))).toMatchObject([{ id: 6, result: {} }]);
  });

  it('sends the head at once with sseHeadHoldMs: 0', async () => {
    let gate: ReturnType<typeof gatedTool> | undefined;
    const srv = await serve({ sseHeadHoldMs: 0 }, (mcp) => {
      gate = gatedTool(mcp);
    });
    const sessionId = await initSession(srv.url);
    const reading = firstChunk(srv.url, sessionId, 7);
    await gate?.started;
    const { reader, first } = await reading; // the head arrived while the tool still waits
    expect(parseSse(first)[0]?.data).toBe('');
    gate?.release();
    expect(sseMessages(first + (await rest(reader)))).toMatchObject([{ id: 7 }]);
  });

  it('holds the head with an asynchronous event store too, and still primes a slow stream', async () => {
    let gate: ReturnType<typeof gatedTool> | undefined;
    const srv = await serve({ eventStore: asyncStore(), sseHeadHoldMs: 300 }, (mcp) => {
      addLater(mcp);
      gate = gatedTool(mcp);
    });
    const sessionId = await initSession(srv.url);
    const quick = await post(srv.url, call(8, 'later'), sessionHeaders(sessionId));
    const text = await quick.text();
    expect(Number(quick.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(parseSse(text)[0]?.data).toBe('');
    expect(sseMessages(text)).toMatchObject([{ id: 8 }]);

    const { reader, first } = await firstChunk(srv.url, sessionId, 9); // after the hold
    expect(parseSse(first)[0]?.data).toBe('');
    gate?.release();
    expect(sseMessages(first + (await rest(reader)))).toMatchObject([{ id: 9 }]);
  });

  it('refuses a negative hold by name', async () => {
    await expect(serve({ sseHeadHoldMs: -1 })).rejects.toThrow(
      /sseHeadHoldMs must be a non-negative integer/,
    );
  });
});
