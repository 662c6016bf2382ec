/**
 * Where the answer to one request of a session goes — the SSE stream of its POST, its POST's response
 * awaiting one JSON body, or a 2025-03-26 batch's JSON array — and how an answer, or the session's
 * end, reaches it.
 */

import { SESSION_CLOSED } from '../seam/refusal.js';
import { type Head, sendJson, sendRefusal } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { EventStore } from '../state/event-store.js';
import { JsonBatch } from './json-batch.js';
import { writable } from './sse.js';
import { SseStream } from './stream.js';

export type Route = SseStream | ResponseSink | JsonBatch;

/** What writing an answer needs: the JSON head of the session, its event store, its backlog bound. */
export interface RouteWriter {
  readonly jsonHead: Head;
  readonly store: EventStore | undefined;
  readonly maxBacklog: number;
}

/**
 * Write `text`, the response to one request of `route` (`all`: the answer to every request of it, an
 * error for the POST as a whole). Returns the route's stream when that completed it. `retryAfter`: the
 * response refuses the request for want of shared state (a POST awaiting this one JSON answer then
 * gets it with 503 and Retry-After; a stream has sent its status already).
 */
export function answerRoute(
  route: Route,
  text: string,
  writer: RouteWriter,
  all = false,
  retryAfter?: number,
): SseStream | undefined {
  if (route instanceof SseStream) {
    route.pending = all ? 0 : route.pending - 1;
    const done = route.pending === 0;
    route.emit(text, writer.store, writer.maxBacklog, done);
    return done ? route : undefined;
  }
  if (route instanceof JsonBatch && !all) route.add(text, writer.jsonHead);
  else {
    const res = route instanceof JsonBatch ? route.res : route;
    if (writable(res)) sendJson(res, writer.jsonHead, text, route === res ? retryAfter : undefined);
  }
  return undefined;
}

/** The session closed: a stream lets its connection go; a POST still awaiting JSON gets 404. */
export function closeRoute(route: Route): void {
  if (route instanceof SseStream) {
    route.detach();
    return;
  }
  const res = route instanceof JsonBatch ? route.res : route;
  if (writable(res)) sendRefusal(res, SESSION_CLOSED);
}
