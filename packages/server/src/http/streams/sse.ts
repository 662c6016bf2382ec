/**
 * Server-Sent Events framing, for both protocol eras: every byte of SSE the server writes is made here.
 * A JSON text never holds a raw newline, so one `data:` line suffices.
 */

import type { Head } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { StoredEvent } from '../state/event-store.js';

/** An event carrying `data` (a message's JSON text), with an id (resumable) or without one. */
export function sseEvent(id: string | undefined, data: string): string {
  return id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`;
}

/** The priming event: an id and empty data, so the client can resume before any message arrived. */
export function ssePriming(id: string): string {
  return `id: ${id}\ndata: \n\n`;
}

/** Tell the client how long to wait before reconnecting (sent before the server closes a stream). */
export function sseRetry(ms: number): string {
  return `retry: ${ms}\n\n`;
}

/** A comment: written to a quiet stream, it keeps proxies from closing it and finds dead connections. */
export const SSE_KEEP_ALIVE = ':\n\n';

/**
 * Headers of every SSE response (no proxy buffering: events must leave at once); the session id (when
 * there is one) is added per session.
 */
export function sseHeaders(sessionId: string | undefined): Head {
  const head = [
    'content-type',
    'text/event-stream',
    'cache-control',
    'no-cache, no-transform',
    'connection',
    'keep-alive',
    'x-accel-buffering',
    'no',
  ];
  if (sessionId !== undefined) head.push('mcp-session-id', sessionId);
  return head;
}

/** Whether `res` can still be written to. */
export function writable(res: ResponseSink | undefined): res is ResponseSink {
  return res !== undefined && !res.writableEnded && !res.destroyed;
}

/** Open an SSE response that starts with stored `events`; `end` closes it after them. */
export function sseReplay(res: ResponseSink, head: Head, events: readonly StoredEvent[], end: boolean): void {
  res.writeHead(200, head as string[]);
  let text = '';
  for (const event of events) text += sseEvent(event.id, event.data);
  if (end) res.end(text);
  else if (text === '') res.flushHeaders();
  else res.write(text);
}

/**
 * A resumption answered before its stream has more to say: what it missed (or the id it resumed from,
 * so that it keeps its place), when to come back, and the end.
 */
export function ssePoll(
  res: ResponseSink,
  head: Head,
  events: readonly StoredEvent[],
  lastEventId: string,
  retryMs: number,
): void {
  res.writeHead(200, head as string[]);
  let text = events.length === 0 ? ssePriming(lastEventId) : '';
  for (const event of events) text += sseEvent(event.id, event.data);
  res.end(text + sseRetry(retryMs));
}
