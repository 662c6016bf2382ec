/**
 * The replay log behind `Last-Event-ID` resumption. Every SSE event a session writes is appended
 * under the id of its logical stream, as the JSON text of its message; a client that lost a
 * connection asks for everything after the last id it saw and gets only that stream's later events.
 * The interface may be backed by anything (Redis, a database); methods may answer synchronously or
 * with a promise.
 */

/** One stored event: its id and the JSON text of its message (empty for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

/** What `after` finds: the stream the id belongs to and the events that followed it, oldest first. */
export interface ReplayedEvents {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
}

export interface EventStore {
  /**
   * Append one event to `streamId` and return its id (unique across all streams of the store). An
   * append may be made before the previous one to the same stream settled; ids follow call order.
   */
  append(streamId: string, data: string): string | Promise<string>;
  /** Events of the same stream after `lastEventId`; undefined when the id is unknown or evicted. */
  after(lastEventId: string): ReplayedEvents | undefined | Promise<ReplayedEvents | undefined>;
  /** Forget every stream whose id starts with `prefix` (a session ended). */
  forget(prefix: string): void | Promise<void>;
  /**
   * Forget one stream whose response reached the client on a live connection: nothing on it can
   * be resumed any more. Optional; a store without it keeps such streams until they are evicted.
   */
  delete?(streamId: string): void | Promise<void>;
}

export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped first. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Streams kept in total; the least recently created is dropped first. Default 10,000. */
  readonly maxStreams?: number;
  /** Bytes of event data kept in total (UTF-16 code units); oldest streams go first. Default 64 MiB. */
  readonly maxBytes?: number;
}

interface StreamLog {
  /** Sequence number of `events[0]`. */
  first: number;
  bytes: number;
  readonly events: string[];
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
  #bytes = 0;
  /**
   * Stream ids in creation order, for eviction. (Taking the first key of a Map whose front entries
   * were deleted walks over the holes, which made every append cost tens of microseconds.)
   */
  #order: string[] = [];
  #orderHead = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = positive(options.maxEventsPerStream, 1000, 'maxEventsPerStream');
    this.#maxStreams = positive(options.maxStreams, 10_000, 'maxStreams');
    this.#maxBytes = positive(options.maxBytes, 64 * 1024 * 1024, 'maxBytes');
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

  append(streamId: string, data: string): string {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      if (this.#streams.size >= this.#maxStreams) this.#dropOldest();
      log = { first: 0, bytes: 0, events: [] };
      this.#streams.set(streamId, log);
      this.#order.push(streamId);
      if (this.#order.length - this.#orderHead > 2 * this.#streams.size + 1024) this.#compactOrder();
    }
    const seq = log.first + log.events.length;
    log.events.push(data);
    log.bytes += data.length;
    this.#bytes += data.length;
    if (log.events.length > this.#maxEvents) {
      const dropped = log.events.shift() as string;
      log.bytes -= dropped.length;
      this.#bytes -= dropped.length;
      log.first++;
    }
    while (this.#bytes > this.#maxBytes && this.#streams.size > 1) this.#dropOldest();
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
    return { streamId, events };
  }

  forget(prefix: string): void {
    for (const [id, log] of this.#streams) {
      if (id.startsWith(prefix)) {
        this.#bytes -= log.bytes;
        this.#streams.delete(id);
      }
    }
  }

  delete(streamId: string): void {
    const log = this.#streams.get(streamId);
    if (log === undefined) return;
    this.#bytes -= log.bytes;
    this.#streams.delete(streamId);
    // The id stays in the eviction order until the next compaction skips it.
  }

  #dropOldest(): void {
    while (this.#orderHead < this.#order.length) {
      const id = this.#order[this.#orderHead++] as string;
      const log = this.#streams.get(id);
      if (log === undefined) continue; // already forgotten
      this.#bytes -= log.bytes;
      this.#streams.delete(id);
      break;
    }
    if (this.#orderHead > 1024 && this.#orderHead * 2 > this.#order.length) this.#compactOrder();
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
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`MemoryEventStore: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
