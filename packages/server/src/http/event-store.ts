/**
 * The replay log behind `Last-Event-ID` resumption. Every SSE event a session writes is appended
 * under the id of its logical stream; a client that lost a connection asks for everything after the
 * last id it saw and gets only that stream's later events. The interface may be backed by anything
 * (Redis, a database); methods may answer synchronously or with a promise.
 */

import type { JsonRpcMessage } from '../transport/types.js';

/** One stored event: its id and the message (`null` marks a priming event, which carries no data). */
export interface StoredEvent {
  readonly id: string;
  readonly message: JsonRpcMessage | null;
}

/** What `after` finds: the stream the id belongs to and the events that followed it, oldest first. */
export interface ReplayedEvents {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
}

export interface EventStore {
  /** Append one event to `streamId` and return its id (unique across all streams of the store). */
  append(streamId: string, message: JsonRpcMessage | null): string | Promise<string>;
  /** Events of the same stream after `lastEventId`; undefined when the id is unknown or evicted. */
  after(lastEventId: string): ReplayedEvents | undefined | Promise<ReplayedEvents | undefined>;
  /** Forget every stream whose id starts with `prefix` (a session ended). */
  forget(prefix: string): void | Promise<void>;
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Streams kept in total; the least recently created is dropped first. Default 10,000. */
  readonly maxStreams?: number;
}

interface StreamLog {
  /** Sequence number of `events[0]`. */
  first: number;
  readonly events: (JsonRpcMessage | null)[];
}

/**
 * A bounded in-memory event store. Event ids are `<streamId>.<sequence>`, so finding an event is
 * one map lookup and one index computation.
 */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, StreamLog>();
  readonly #maxEvents: number;
  readonly #maxStreams: number;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = positive(options.maxEventsPerStream, 1000, 'maxEventsPerStream');
    this.#maxStreams = positive(options.maxStreams, 10_000, 'maxStreams');
  }

  /** Number of streams currently held (for tests and monitoring). */
  get size(): number {
    return this.#streams.size;
  }

  append(streamId: string, message: JsonRpcMessage | null): string {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      if (this.#streams.size >= this.#maxStreams) {
        const oldest = this.#streams.keys().next().value;
        if (oldest !== undefined) this.#streams.delete(oldest);
      }
      log = { first: 0, events: [] };
      this.#streams.set(streamId, log);
    }
    const seq = log.first + log.events.length;
    log.events.push(message);
    if (log.events.length > this.#maxEvents) {
      log.events.shift();
      log.first++;
    }
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
      const message = log.events[s - log.first] ?? null;
      if (message !== null) events.push({ id: `${streamId}.${s}`, message });
    }
    return { streamId, events };
  }

  forget(prefix: string): void {
    for (const id of this.#streams.keys()) if (id.startsWith(prefix)) this.#streams.delete(id);
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`MemoryEventStore: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
