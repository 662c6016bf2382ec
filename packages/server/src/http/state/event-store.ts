/**
 * The replay log behind `Last-Event-ID` resumption. Every SSE event a session writes is appended
 * under the id of its logical stream, as the JSON text of its message; a client that lost a
 * connection asks for everything after the last id it saw and gets only that stream's later events.
 * A stream that got its last event (the answer to its request) is complete: it stays resumable for
 * the store's retention window, whatever happened to the connection that carried it (a write that
 * succeeded may have reached only a proxy). The interface may be backed by anything (Redis, a
 * database); methods may answer synchronously or with a promise.
 */

import type { RequestId } from '../../core/transport.js';

/** One stored event: its id and the JSON text of its message (empty for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

/** What `after` finds: the stream the id belongs to and the events that followed it, oldest first. */
export interface ReplayedEvents {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
  /** The stream got its last event: nothing more will come on it. */
  readonly complete?: boolean;
  /** The requests the stream answers, when its first event named them. */
  readonly requests?: readonly RequestId[];
}

/** What an append may say about its event besides its text. */
export interface AppendOptions {
  /**
   * The requests this stream answers (given with the first event of a POST's stream): a resumption
   * that finds the stream unfinished and its process gone answers them with an error.
   */
  readonly requests?: readonly RequestId[];
  /**
   * This is the stream's last event: the stream is complete, and the store keeps it for its retention
   * window, then may forget it. A complete stream takes no other last event: such an append stores
   * nothing and returns the id of the stream's last event.
   */
  readonly last?: boolean;
  /**
   * The id of this stream's latest event as far as the caller knows (the writer of a long-lived
   * stream). A store that no longer holds the stream's log (evicted, expired, or kept in a Redis that
   * restarted empty) numbers this event after it: an id is never given twice in one stream, and a
   * client resuming from an id given before gets what was stored since.
   */
  readonly previous?: string;
}

export interface EventStore {
  /**
   * Append one event to `streamId` and return its id (unique across all streams of the store). An
   * append may be made before the previous one to the same stream settled; ids follow call order.
   */
  append(streamId: string, data: string, options?: AppendOptions): string | Promise<string>;
  /** Events of the same stream after `lastEventId`; undefined when the id is unknown or evicted. */
  after(lastEventId: string): ReplayedEvents | undefined | Promise<ReplayedEvents | undefined>;
  /** Forget every stream whose id starts with `prefix` (a session ended). */
  forget(prefix: string): void | Promise<void>;
  /**
   * Forget one stream at once.
   * @deprecated The HTTP transport no longer calls it: a complete stream stays resumable for the
   * store's retention window (see `AppendOptions.last`), since a write that succeeded may have reached
   * only a proxy.
   */
  delete?(streamId: string): void | Promise<void>;
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /**
   * Streams kept in total. Beyond it, complete streams go first (the oldest first), then the least
   * recently created. Default 10,000.
   */
  readonly maxStreams?: number;
  /** Bytes of event data kept in total (UTF-16 code units); streams go in the same order. Default 64 MiB. */
  readonly maxBytes?: number;
  /** How long a complete stream stays resumable, within the bounds above (ms). Default 60,000. */
  readonly retentionMs?: number;
}

interface StreamLog {
  /** Sequence number of `events[0]`. */
  first: number;
  bytes: number;
  readonly events: string[];
  /** Its last event was appended. */
  complete: boolean;
  requests: readonly RequestId[] | undefined;
}

/** A complete stream waiting for the end of its retention (or for room to be needed). */
interface Retained {
  readonly id: string;
  readonly log: StreamLog;
  readonly until: number;
}

/**
 * A bounded in-memory event store. Event ids are `<streamId>.<sequence>`, so finding an event is
 * one map lookup and one index computation.
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, StreamLog>();
  readonly #maxEvents: number;
  readonly #maxStreams: number;
  readonly #maxBytes: number;
  readonly #retentionMs: number;
  #bytes = 0;
  /**
   * Stream ids in creation order, for eviction. (Taking the first key of a Map whose front entries
   * were deleted walks over the holes, which made every append cost tens of microseconds.)
   */
  #order: string[] = [];
  #orderHead = 0;
  /** Complete streams in the order they completed (so in the order their retention ends). */
  #retained: Retained[] = [];
  #retainedHead = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = positive(options.maxEventsPerStream, 1000, 'maxEventsPerStream');
    this.#maxStreams = positive(options.maxStreams, 10_000, 'maxStreams');
    this.#maxBytes = positive(options.maxBytes, 64 * 1024 * 1024, 'maxBytes');
    this.#retentionMs = positive(options.retentionMs, 60_000, 'retentionMs');
  }

  /** Number of streams currently held (for tests and monitoring). */
  get size(): number {
    return this.#streams.size;
  }

  /** Length of the eviction order (for tests: it must stay proportional to `size`). */
  get orderLength(): number {
    return this.#order.length - this.#orderHead;
  }

  /** Bytes of event data currently held. */
  get bytes(): number {
    return this.#bytes;
  }

  append(streamId: string, data: string, options?: AppendOptions): string {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      if (this.#streams.size >= this.#maxStreams) this.#dropOne();
      log = {
        first: nextAfter(streamId, options?.previous),
        bytes: 0,
        events: [],
        complete: false,
        requests: undefined,
      };
      this.#streams.set(streamId, log);
      this.#order.push(streamId);
      if (this.#order.length - this.#orderHead > 2 * this.#streams.size + 1024) this.#compactOrder();
    } else if (log.complete && options?.last === true) {
      return `${streamId}.${log.first + log.events.length - 1}`;
    }
    const seq = log.first + log.events.length;
    log.events.push(data);
    log.bytes += data.length;
    this.#bytes += data.length;
    if (options?.requests !== undefined) log.requests = options.requests;
    if (log.events.length > this.#maxEvents) {
      const dropped = log.events.shift() as string;
      log.bytes -= dropped.length;
      this.#bytes -= dropped.length;
      log.first++;
    }
    if (options?.last === true && !log.complete) this.#retain(streamId, log);
    while (this.#bytes > this.#maxBytes && this.#streams.size > 1) this.#dropOne();
    return `${streamId}.${seq}`;
  }

  after(lastEventId: string): ReplayedEvents | undefined {
    const dot = lastEventId.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const streamId = lastEventId.slice(0, dot);
    const seq = Number(lastEventId.slice(dot + 1));
    const log = this.#streams.get(streamId);
    if (log === undefined || !Number.isInteger(seq) || seq < log.first - 1) return undefined;
    const end = log.first + log.events.length;
    if (seq >= end) return undefined;
    const events: StoredEvent[] = [];
    for (let s = Math.max(seq + 1, log.first); s < end; s++) {
      const data = log.events[s - log.first] ?? '';
      if (data !== '') events.push({ id: `${streamId}.${s}`, data });
    }
    const found = { streamId, events, complete: log.complete };
    return log.requests === undefined ? found : { ...found, requests: log.requests };
  }

  forget(prefix: string): void {
    for (const [id, log] of this.#streams) {
      if (id.startsWith(prefix)) {
        this.#bytes -= log.bytes;
        this.#streams.delete(id);
      }
    }
  }

  /** Forget one stream at once (the HTTP transport never does: complete streams are retained). */
  delete(streamId: string): void {
    const log = this.#streams.get(streamId);
    if (log === undefined) return;
    this.#bytes -= log.bytes;
    this.#streams.delete(streamId);
    // The id stays in the eviction order until the next compaction skips it.
  }

  /** `log` just completed: keep it for the retention window; drop those whose window ended. */
  #retain(id: string, log: StreamLog): void {
    log.complete = true;
    const now = Date.now();
    this.#retained.push({ id, log, until: now + this.#retentionMs });
    for (let next = this.#retained[this.#retainedHead]; next !== undefined && next.until <= now; ) {
      this.#retainedHead++;
      if (this.#streams.get(next.id) === next.log) this.#drop(next.id, next.log);
      next = this.#retained[this.#retainedHead];
    }
    this.#compactRetained();
  }

  /** Make room: the oldest complete stream, else the least recently created one. */
  #dropOne(): void {
    while (this.#retainedHead < this.#retained.length) {
      const { id, log } = this.#retained[this.#retainedHead++] as Retained;
      if (this.#streams.get(id) !== log) continue; // already forgotten
      this.#drop(id, log);
      this.#compactRetained();
      return;
    }
    while (this.#orderHead < this.#order.length) {
      const id = this.#order[this.#orderHead++] as string;
      const log = this.#streams.get(id);
      if (log === undefined) continue; // already forgotten
      this.#drop(id, log);
      break;
    }
    if (this.#orderHead > 1024 && this.#orderHead * 2 > this.#order.length) this.#compactOrder();
  }

  #drop(id: string, log: StreamLog): void {
    this.#bytes -= log.bytes;
    this.#streams.delete(id);
  }

  /** Drop consumed and forgotten ids from the eviction order (amortised: runs when it has doubled). */
  #compactOrder(): void {
    const live: string[] = [];
    for (let i = this.#orderHead; i < this.#order.length; i++) {
      const id = this.#order[i] as string;
      if (this.#streams.has(id)) live.push(id);
    }
    this.#order = live;
    this.#orderHead = 0;
  }

  #compactRetained(): void {
    if (this.#retainedHead > 1024 && this.#retainedHead * 2 > this.#retained.length) {
      this.#retained = this.#retained.slice(this.#retainedHead);
      this.#retainedHead = 0;
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`MemoryEventStore: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Where a stream whose log is gone starts again: after `previous` when it is one of its ids, else 0. */
function nextAfter(streamId: string, previous: string | undefined): number {
  if (previous === undefined || !previous.startsWith(`${streamId}.`)) return 0;
  const seq = previous.slice(streamId.length + 1);
  return /^[0-9]{1,15}$/.test(seq) ? Number(seq) + 1 : 0;
}
