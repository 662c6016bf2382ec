/**
 * A GET with `Last-Event-ID`. The stream goes on here when this process carries it (the new
 * connection replaces the old one, which a load balancer may still hold open) or when it is another
 * process's GET stream (this process's GET stream takes over). Otherwise it is a POST's stream that no
 * connection of this process carries (it ran, or runs, in another process, or it ended here), and what
 * the client gets depends on what the event store says of it:
 * - complete: the events it missed, then the end (nothing more will come);
 * - unfinished, its process running: the events it missed (or its own id again, so that it keeps its
 *   place), `retry`, then the end: the client comes back, to this process or another, until the
 *   answer is stored;
 * - unfinished, its process gone for good: an error answers each of its requests (stored as the
 *   stream's last event, so every later resumption gets the same), then the end.
 */

import type { JsonRpcMessage } from '../../core/transport.js';
import { Refused, refuse, SESSION_NOT_FOUND } from '../seam/refusal.js';
import type { Head } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { EventStore, ReplayedEvents } from '../state/event-store.js';
import { SharedStateUnavailable } from '../state/shared-state.js';
import { lostRequestError } from './lost.js';
import { nodeOfStream } from './node-tags.js';
import { ssePoll, sseReplay } from './sse.js';
import type { SseStream } from './stream.js';

export interface ResumeContext {
  readonly store: EventStore;
  readonly head: Head;
  readonly sessionId: string;
  /** `retry` (ms) sent with a poll answer. */
  readonly retryMs: number;
  /** This process's tag, when several processes serve one session. */
  readonly nodeId: string | undefined;
  /** Whether the process `nodeId` is gone for good (undefined: every process is presumed running). */
  readonly isGone: ((nodeId: string) => Promise<boolean>) | undefined;
  /** The session was closed (while the store was read). */
  readonly closed: () => boolean;
  /** The stream of this session that carries `streamId` on here, if any. */
  readonly carrier: (streamId: string) => SseStream | undefined;
}

/**
 * What a resumption came to: a stream carried on here (the stream resumed, and the last id replayed
 * on it), an answer, or nothing.
 */
export type Resumed =
  | { readonly stream: SseStream; readonly from: string; readonly through: string }
  | 'answered'
  | 'fresh';

/**
 * Answer a GET with `Last-Event-ID`. 'fresh': the id names nothing resumable of this session (or a
 * complete stream the client has all of), and the caller opens the session's GET stream. Refuses
 * (throws) with 404 when the session closed meanwhile, and throws SharedStateUnavailable when the
 * replay could not be read.
 */
export async function resumeStream(
  res: ResponseSink,
  lastEventId: string,
  context: ResumeContext,
): Promise<Resumed> {
  try {
    const found = await context.store.after(lastEventId);
    if (context.closed()) {
      refuse(SESSION_NOT_FOUND);
    }
    if (!found?.streamId.startsWith(`${context.sessionId}.`)) return 'fresh';
    const stream = context.carrier(found.streamId);
    if (stream !== undefined) return await carryOn(res, stream, found, lastEventId, context);
    return (await resumeUnheld(res, found, lastEventId, context)) ? 'answered' : 'fresh';
  } catch (error) {
    if (error instanceof Refused) throw error;
    // The replay is in shared state (Redis) that could not be read.
    throw new SharedStateUnavailable(error);
  }
}

/**
 * Carry `stream` on over `res`. Nothing more goes into the connection being replaced (its client left it):
 * what is written from now on is kept (what was kept before is in the store, or was another client's),
 * and the replay is read again once the appends under way are stored, so that an event stored after the
 * first read is neither written into the old connection and lost nor sent twice.
 */
async function carryOn(
  res: ResponseSink,
  stream: SseStream,
  found: ReplayedEvents,
  lastEventId: string,
  context: ResumeContext,
): Promise<Resumed> {
  stream.detach();
  stream.backlog = undefined;
  stream.resuming = true;
  try {
    await stream.tail;
    const latest = (await context.store.after(lastEventId)) ?? found;
    if (context.closed()) {
      refuse(SESSION_NOT_FOUND);
    }
    if (latest.complete === true) {
      sseReplay(res, context.head, latest.events, true); // answered meanwhile: nothing more will come
      return 'answered';
    }
    stream.resume(res, context.head, latest.events);
    return { stream, from: found.streamId, through: latest.events.at(-1)?.id ?? lastEventId };
  } finally {
    stream.resuming = false;
  }
}

/**
 * Answer the resumption of `found` (read for `lastEventId`). Returns false when the stream is complete
 * and the client already has all of it: the caller opens the session's GET stream instead, as for an
 * id the store no longer knows.
 */
async function resumeUnheld(
  res: ResponseSink,
  found: ReplayedEvents,
  lastEventId: string,
  context: ResumeContext,
): Promise<boolean> {
  if (found.complete === true) {
    if (found.events.length === 0) return false;
    sseReplay(res, context.head, found.events, true);
    return true;
  }
  const node = nodeOfStream(context.sessionId, found.streamId);
  const gone =
    node !== undefined && node !== context.nodeId && (await context.isGone?.(node).catch(() => false));
  if (gone !== true || found.requests === undefined) {
    ssePoll(res, context.head, found.events, lastEventId, context.retryMs);
    return true;
  }
  const ended = await answerLost(found, node as string, context.store);
  sseReplay(res, context.head, (await context.store.after(lastEventId))?.events ?? ended, true);
  return true;
}

/**
 * The messages this process raised on its GET stream `stream` after event `after` (once the writes
 * under way settled): those written into a connection its client had left for another process. The
 * ones other processes raised are left out: that process got them itself.
 */
export async function ownEventsAfter(
  stream: SseStream,
  store: EventStore,
  after: string,
): Promise<JsonRpcMessage[]> {
  await stream.tail;
  const found = await store.after(after);
  const forwarded = new Set(stream.forwarded ?? []);
  const own = (found?.events ?? []).filter((event) => !forwarded.has(event.id));
  return own.map((event) => JSON.parse(event.data) as JsonRpcMessage);
}

/**
 * Store an error for each request of `found`'s stream that has no answer yet, the last one as the
 * stream's last event (the store refuses a second last event, so processes racing here agree).
 * Returns the stored events, for when the stream cannot be read back.
 */
async function answerLost(
  found: ReplayedEvents,
  node: string,
  store: EventStore,
): Promise<ReplayedEvents['events']> {
  const requests = found.requests ?? [];
  const answered = new Set<unknown>();
  if (requests.length > 1) {
    // A batch's stream: some requests may have their answers already.
    const whole = await store.after(`${found.streamId}.0`);
    for (const event of whole?.events ?? found.events) answered.add(responseId(event.data));
  }
  const lost = requests.filter((id) => !answered.has(id));
  const events = [];
  for (const [i, id] of lost.entries()) {
    const data = lostRequestError(id, node);
    const eventId = await store.append(found.streamId, data, { last: i === lost.length - 1 });
    events.push({ id: eventId, data });
  }
  return [...found.events, ...events];
}

/** The id of a response's JSON text (undefined for anything else). */
function responseId(data: string): unknown {
  try {
    const message = JSON.parse(data) as { id?: unknown; method?: unknown };
    return message.method === undefined ? message.id : undefined;
  } catch {
    return undefined;
  }
}
