/**
 * One logical SSE stream of a session: the stream answering a POST, or the standalone stream a GET
 * opens. The logical stream outlives its HTTP connection: when the connection drops (or the server
 * closes it to make the client poll), later events are kept in the event store and a GET with
 * `Last-Event-ID` attaches a new connection to the same stream.
 *
 * A POST stream holds back its response head and priming event until the first event: a response
 * produced at once then leaves in a single write with a Content-Length, like a JSON answer. Its last
 * event is stored as such: the stream is complete, and stays resumable for the store's retention
 * window even when the write that carried the event succeeded (a proxy may have taken it for a
 * client that was gone).
 */

import type { RequestId } from '../../core/transport.js';
import { type Head, withLength } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { AppendOptions, EventStore, StoredEvent } from '../state/event-store.js';
import { type KeepAlive, NO_KEEP_ALIVE, type Pingable } from './keep-alive.js';
import { SSE_KEEP_ALIVE, sseEvent, ssePriming, sseReplay, writable } from './sse.js';

/** How many ids of forwarded events a GET stream remembers (see `forwarded`). */
const FORWARDED_KEPT = 64;

export class SseStream implements Pingable {
  /** The live connection, if any. */
  res: ResponseSink | undefined;
  /** Requests of this stream still waiting for their response (POST streams). */
  pending = 0;
  /** Set once an asynchronous event store is in use: keeps writes in order. */
  tail: Promise<void> | undefined;
  /** Events stored or being stored whose write waits on `tail`. */
  queued = 0;
  /** Events written while no connection was attached (standalone stream only). */
  backlog: string[] | undefined;
  /** Response headers not sent yet (held back with the priming event). */
  head: Head | undefined;
  /** Text to send before the next event (the priming event). */
  prefix: string | undefined;
  /** Reports a failure of an asynchronous event store. */
  onError: ((error: Error) => void) | undefined;
  /** The id of the last event stored on this stream (as far as the store has answered). */
  lastId: string | undefined;
  /** Ids of the last events stored for messages other processes raised (a GET stream's). */
  forwarded: string[] | undefined;
  /** A resumption is reading the replay: what is written meanwhile is kept (see `resume`). */
  resuming = false;

  constructor(
    readonly id: string,
    readonly standalone: boolean,
    private readonly keepAlive: KeepAlive = NO_KEEP_ALIVE,
  ) {}

  /**
   * Store the priming event (an id and empty data, so that the client can resume before any message
   * arrived) and send it before the first event; a POST's stream stores the ids of the requests it
   * answers with it. With an asynchronous store the head waits for it: `held` gets the stream once it
   * is stored, when no event is queued behind it (that event's write carries head and priming).
   */
  prime(
    store: EventStore,
    requests: readonly RequestId[] | undefined,
    held: (stream: SseStream) => void,
  ): void {
    const id = store.append(this.id, '', this.#options(false, requests));
    if (typeof id === 'string') {
      this.#stored(id, false);
      this.prefix = ssePriming(id);
      return;
    }
    this.tail = id
      .then((eventId) => {
        this.#stored(eventId, false);
        this.prefix = ssePriming(eventId);
      }, this.#fail)
      .then(() => {
        if (this.queued === 0) held(this);
      })
      .catch(this.#fail);
  }

  /** Attach a connection (call `watch` unless it is answered at once). */
  attach(res: ResponseSink): void {
    this.res = res;
  }

  /** Keep the live connection alive, and detach it when it closes (the client went away). */
  watch(): void {
    const res = this.res;
    if (res === undefined) return;
    this.keepAlive.add(this);
    res.once('close', () => {
      if (this.res !== res) return;
      this.res = undefined;
      this.keepAlive.remove(this);
    });
  }

  /** A keep-alive comment, once the head has left. */
  ping(): void {
    if (this.head === undefined && writable(this.res)) this.#send(SSE_KEEP_ALIVE, false);
  }

  /**
   * A client resumed with `Last-Event-ID`: replay what it missed, then what was written while the
   * replay was read and the replay does not hold (an event the store could not take has no id), then
   * continue live on `res`.
   */
  resume(res: ResponseSink, head: Head, missed: readonly StoredEvent[]): void {
    sseReplay(res, head, missed, false);
    const replayed = new Set<string | undefined>(missed.map((event) => event.id));
    const kept = this.backlog ?? [];
    this.backlog = undefined;
    this.attach(res);
    this.watch();
    for (const text of kept) if (!replayed.has(eventIdOf(text))) res.write(text);
  }

  /**
   * The GET stream's new connection (attached and primed): head and priming event now, then what was
   * kept while no connection was attached.
   */
  start(): void {
    const res = this.res;
    if (res === undefined) return;
    this.flush();
    this.watch();
    const backlog = this.backlog;
    this.backlog = undefined;
    if (backlog !== undefined) for (const text of backlog) res.write(text);
  }

  /** Send whatever is held back (head, priming event) now. */
  flush(): void {
    if ((this.head !== undefined || this.prefix !== undefined) && writable(this.res)) this.#send('', false);
  }

  /** Write raw SSE text to the live connection, or keep it for the next one (standalone only). */
  write(text: string, maxBacklog: number): void {
    if (writable(this.res)) {
      this.#send(text, false);
    } else if (this.standalone || this.resuming) {
      if (this.backlog === undefined) this.backlog = [];
      this.backlog.push(text);
      if (this.backlog.length > maxBacklog) this.backlog.shift();
    }
  }

  /**
   * Write one message (its JSON text), storing it first when the session is resumable; `end` closes
   * after it. `forwarded`: another process raised it (its id is remembered, see `forwarded`).
   */
  emit(
    data: string,
    store: EventStore | undefined,
    maxBacklog: number,
    end: boolean,
    forwarded = false,
  ): void {
    if (store === undefined) {
      this.#out(sseEvent(undefined, data), maxBacklog, end);
      return;
    }
    const options = this.#options(end);
    if (this.tail !== undefined) {
      // Stored at once (the store numbers events in the order they are appended, so a Redis round trip
      // carries this event with the ones before it); only the write waits for the events before it.
      const appended = appendNow(store, this.id, data, options);
      this.queued++;
      this.tail = this.tail
        .then(() => this.#storeAndWrite(data, maxBacklog, end, appended, forwarded))
        .catch(this.#fail);
      return;
    }
    const id = store.append(this.id, data, options);
    if (typeof id === 'string') {
      this.#stored(id, forwarded);
      this.#out(sseEvent(id, data), maxBacklog, end);
    } else this.tail = this.#storeAndWrite(data, maxBacklog, end, id, forwarded);
  }

  /** Close the live connection, after `finalText` (the logical stream stays open). */
  detach(finalText = ''): void {
    if (writable(this.res)) this.#send(finalText, true);
    this.res = undefined;
    this.keepAlive.remove(this);
  }

  /**
   * What an append tells the store besides the data: the stream's last event, the requests it
   * answers, and the id stored before it (so a store that lost the log numbers on from there).
   */
  #options(last: boolean, requests?: readonly RequestId[]): AppendOptions | undefined {
    if (this.lastId === undefined && requests === undefined) return last ? LAST : undefined;
    const options: { last?: boolean; requests?: readonly RequestId[]; previous?: string } = {};
    if (last) options.last = true;
    if (requests !== undefined) options.requests = requests;
    if (this.lastId !== undefined) options.previous = this.lastId;
    return options;
  }

  readonly #fail = (error: unknown): void => {
    this.onError?.(error instanceof Error ? error : new Error(String(error)));
  };

  /**
   * Store, then write. When the store fails (Redis unreachable) the event still goes out live, without
   * an id: the client gets it but cannot resume from it.
   */
  async #storeAndWrite(
    data: string,
    max: number,
    end: boolean,
    appended: Promise<string>,
    forwarded: boolean,
  ): Promise<void> {
    let eventId: string | undefined;
    try {
      eventId = await appended;
      this.#stored(eventId, forwarded);
    } catch (error) {
      this.#fail(error);
    }
    if (this.queued > 0) this.queued--;
    this.#out(sseEvent(eventId, data), max, end);
  }

  #stored(eventId: string, forwarded: boolean): void {
    this.lastId = eventId;
    if (!forwarded) return;
    this.forwarded ??= [];
    this.forwarded.push(eventId);
    if (this.forwarded.length > FORWARDED_KEPT) this.forwarded.shift();
  }

  /** Write `text`; `end` closes the connection after it (the stream's log stays in the store). */
  #out(text: string, maxBacklog: number, end: boolean): void {
    if (end) this.detach(text);
    else this.write(text, maxBacklog);
  }

  /** The one place that writes: head and prefix first when still held back. */
  #send(text: string, end: boolean): void {
    const res = this.res as ResponseSink;
    if (this.prefix !== undefined) {
      text = this.prefix + text;
      this.prefix = undefined;
    }
    const head = this.head;
    if (head !== undefined) {
      this.head = undefined;
      if (end) {
        res.writeHead(200, withLength(head, text));
        res.end(text);
        return;
      }
      res.writeHead(200, head as string[]);
      if (text === '') {
        res.flushHeaders();
        return;
      }
    }
    if (end) res.end(text);
    else res.write(text);
  }
}

/** The id of an event's SSE text (undefined when it has none). */
function eventIdOf(text: string): string | undefined {
  return text.startsWith('id: ') ? text.slice(4, text.indexOf('\n')) : undefined;
}

/** The options of a stream's last event. */
const LAST: AppendOptions = { last: true };

/** `store.append` as a promise that is already handled (it is awaited later, behind earlier events). */
function appendNow(
  store: EventStore,
  streamId: string,
  data: string,
  options: AppendOptions | undefined,
): Promise<string> {
  let appended: Promise<string>;
  try {
    appended = Promise.resolve(store.append(streamId, data, options));
  } catch (error) {
    appended = Promise.reject(error);
  }
  appended.catch(() => {});
  return appended;
}
