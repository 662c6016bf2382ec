/**
 * The logical SSE streams of one session in this process, by id: the streams of POSTs whose requests await
 * their answers, and the one standalone stream a GET opens, each made with an id naming its session and process.
 */

import type { JsonRpcMessage } from '../../core/transport.js';
import type { EventStore } from '../state/event-store.js';
import type { KeepAlive } from './keep-alive.js';
import { isGetStream, streamIdOf } from './node-tags.js';
import { ownEventsAfter } from './resume.js';
import { writable } from './sse.js';
import { SseStream } from './stream.js';

export class StreamSet {
  readonly #streams = new Map<string, SseStream>();
  #standalone: SseStream | undefined;
  #seq = 0;

  /** `onError`: told of a failure of an asynchronous event store (undefined: the session keeps no events). */
  constructor(
    private readonly sessionId: string | undefined,
    private readonly nodeId: string | undefined,
    private readonly keepAlive: KeepAlive | undefined,
    private readonly onError: ((error: Error) => void) | undefined,
  ) {}

  get size(): number {
    return this.#streams.size;
  }

  get(id: string): SseStream | undefined {
    return this.#streams.get(id);
  }

  delete(id: string): void {
    this.#streams.delete(id);
  }

  values(): IterableIterator<SseStream> {
    return this.#streams.values();
  }

  /** The standalone stream, once made. */
  get standalone(): SseStream | undefined {
    return this.#standalone;
  }

  /** Whether the standalone stream has a live connection. */
  get standaloneConnected(): boolean {
    return writable(this.#standalone?.res);
  }

  /** A new stream (the standalone one is made once, by `standaloneStream`). */
  open(standalone: boolean): SseStream {
    const id = streamIdOf(this.sessionId ?? '', this.nodeId, this.#seq++, standalone);
    const stream = new SseStream(id, standalone, this.keepAlive);
    if (this.onError !== undefined) stream.onError = this.onError;
    this.#streams.set(stream.id, stream);
    return stream;
  }

  /** The standalone stream, made on first use. */
  standaloneStream(): SseStream {
    if (this.#standalone === undefined) this.#standalone = this.open(true);
    return this.#standalone;
  }

  /** The stream that carries `streamId` on here: its own, or for another process's GET stream, this one's. */
  carrier(streamId: string): SseStream | undefined {
    const own = this.#streams.get(streamId);
    if (own !== undefined || this.nodeId === undefined || !isGetStream(streamId)) return own;
    return this.standaloneStream();
  }

  /**
   * Another process holds the session's GET stream now: close the connection here. When it resumed this
   * one's GET stream (`stream`) through event `after`, the messages raised here and stored after it are
   * returned, to be passed on to it (those other processes raised are not: it got them itself).
   */
  async releaseStandalone(
    store: EventStore | undefined,
    stream?: string,
    after?: string,
  ): Promise<JsonRpcMessage[]> {
    const standalone = this.#standalone;
    if (standalone === undefined) return [];
    standalone.detach();
    if (standalone.id !== stream || after === undefined || store === undefined) return [];
    return ownEventsAfter(standalone, store, after);
  }

  /** Let every connection go and forget every stream. */
  clear(): void {
    for (const stream of this.#streams.values()) stream.detach();
    this.#streams.clear();
    this.#standalone = undefined;
  }
}
