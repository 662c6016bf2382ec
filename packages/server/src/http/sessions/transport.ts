/**
 * The server side of one Streamable HTTP session (or of one request, in stateless mode), handed each
 * checked request by the handler. It routes every outgoing message to the one stream it belongs to: a
 * response to its request's POST, a request-related notification or server→client request to that
 * POST's SSE stream, anything else to the standalone stream a GET opened. Nothing is shared between sessions.
 */

import { type McpError, retryAfterOf } from '../../core/errors.js';
import { encodeJson } from '../../core/raw-json.js';
import type {
  JsonRpcMessage,
  MessageContext,
  RequestId,
  SendOptions,
  Transport,
} from '../../core/transport.js';
import { Admissions } from '../seam/admission.js';
import { conflict, refuse } from '../seam/refusal.js';
import { type Head, statelessRefusal } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import { type HeadHold, NO_HOLD } from '../streams/head-hold.js';
import { JsonBatch } from '../streams/json-batch.js';
import { tagOutgoing } from '../streams/node-tags.js';
import { resumeStream } from '../streams/resume.js';
import { answerRoute, closeRoute, type Route, type RouteWriter } from '../streams/routes.js';
import { sseHeaders, sseRetry, writable } from '../streams/sse.js';
import { SseStream } from '../streams/stream.js';
import { StreamSet } from '../streams/stream-set.js';
import type { HttpTransportConfig } from './transport-config.js';

export type { HttpTransportConfig } from './transport-config.js';

export class HttpServerTransport implements Transport {
  onmessage?: (message: unknown, context?: MessageContext) => void;
  onparseerror?: (error: Error, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly sessionId: string | undefined;
  /** Protocol version the session negotiated (learnt from its initialize result). */
  protocolVersion: string | undefined;
  /** Time of the last request of this session (ms since epoch), for idle expiry. */
  lastSeen = Date.now();

  readonly #config: HttpTransportConfig<HttpServerTransport>;
  /** Sends a POST stream's head after the configured hold (at once when none is configured). */
  readonly #headHold: HeadHold;
  readonly #sseHead: Head;
  readonly #acceptedHead: Head;
  readonly #writer: RouteWriter;
  readonly #routes = new Map<RequestId, Route>();
  /** Requests sent alone, until answered: whether the core admitted them (their response may start). */
  readonly #admissions = new Admissions();
  /** Open logical streams by id (POST streams with pending requests, and the standalone one). */
  readonly #streams: StreamSet;
  #initId: RequestId | undefined;
  /** Ids of the POST whose messages are handed to the core right now. */
  #delivering: RequestId[] | undefined;
  #closed = false;

  constructor(config: HttpTransportConfig<HttpServerTransport>) {
    this.#config = config;
    this.#headHold = config.headHold ?? NO_HOLD;
    this.sessionId = config.sessionId;
    this.#sseHead = sseHeaders(config.sessionId);
    const session = config.sessionId === undefined ? [] : ['mcp-session-id', config.sessionId];
    const jsonHead = ['content-type', 'application/json', ...session];
    this.#writer = { jsonHead, store: config.eventStore, maxBacklog: config.maxBacklog };
    this.#acceptedHead = ['content-length', '0', ...session];
    const onError = config.eventStore === undefined ? undefined : (error: Error) => this.onerror?.(error);
    this.#streams = new StreamSet(config.sessionId, config.nodeId, config.keepAlive, onError);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Requests still waiting for their response. */
  get inFlight(): number {
    return this.#routes.size;
  }

  /** Logical SSE streams still open (request streams awaiting a response, plus the standalone one). */
  get streamCount(): number {
    return this.#streams.size;
  }

  /** Whether a GET stream of this session has a live connection here. */
  get standaloneConnected(): boolean {
    return this.#streams.standaloneConnected;
  }

  /** Whether a client connection is open on any stream of this session. */
  get connected(): boolean {
    for (const stream of this.#streams.values()) if (writable(stream.res)) return true;
    for (const route of this.#routes.values()) if (!(route instanceof SseStream)) return true; // JSON answers pending
    return false;
  }

  async start(): Promise<void> {}

  /** A POST carrying a notification or a response: accepted with 202, then delivered. */
  acceptNotification(res: ResponseSink, message: JsonRpcMessage, context: MessageContext): void {
    this.lastSeen = Date.now();
    res.writeHead(202, this.#acceptedHead as string[]).end();
    this.onmessage?.(message, context);
  }

  /**
   * A POST carrying a request: routes its answer to its SSE stream (or JSON body), then delivers. Its response
   * starts once the core admitted it: settles then (undefined: at once), or throws (rejects) with the core's
   * refusal, for the stage to answer. Refuses (throws) with 409 when its id is already in flight.
   */
  acceptRequest(
    res: ResponseSink,
    message: JsonRpcMessage,
    id: RequestId,
    context: MessageContext,
    headerVersion: string | undefined,
  ): Promise<void> | undefined {
    this.lastSeen = Date.now();
    if (this.#routes.has(id))
      refuse(conflict(-32600, `Request id ${JSON.stringify(id)} is already in flight`));
    if (message.method === 'initialize') this.#initId = id;
    const deliver = () => this.#deliver(message, context, [id]);
    if (this.#config.jsonResponse) {
      this.#routes.set(id, res);
      return this.#admissions.wait(id, deliver);
    }
    const stream = this.#streams.open(false);
    stream.pending = 1;
    this.#routes.set(id, stream);
    stream.head = this.#sseHead;
    stream.attach(res);
    const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const version = headerVersion ?? (typeof asked === 'string' ? asked : undefined);
    // Primed once admitted: a refused request stored no event, and its response did not start.
    const prime = () => this.#prime(stream, res, version, [id]);
    return this.#admissions.wait(id, deliver, prime, () => this.#started(stream));
  }

  /** The core's admission of request `id` (sent alone): its response may start, or it is refused. */
  admission(id: RequestId, refusal: McpError | undefined): void {
    this.#admissions.decide(id, refusal);
  }

  /**
   * A 2025-03-26 batch (the handler checked the version and each element): its requests share one
   * SSE stream, or one JSON array answer; a batch of notifications and responses gets 202. Refuses
   * (throws) with 409 when an id repeats or is already in flight.
   */
  acceptBatch(
    res: ResponseSink,
    messages: JsonRpcMessage[],
    ids: RequestId[],
    context: MessageContext,
  ): void {
    this.lastSeen = Date.now();
    if (ids.length === 0) {
      res.writeHead(202, this.#acceptedHead as string[]).end();
      this.onmessage?.(messages, context);
      return;
    }
    if (ids.some((id) => this.#routes.has(id)) || new Set(ids).size !== ids.length)
      refuse(conflict(-32600, 'A request id of the batch is repeated or already in flight'));
    let stream: SseStream | undefined;
    let route: Route;
    if (this.#config.jsonResponse) route = new JsonBatch(res, ids.length);
    else {
      stream = this.#streams.open(false);
      stream.pending = ids.length;
      stream.head = this.#sseHead;
      this.#prime(stream, res, this.protocolVersion, ids);
      route = stream;
    }
    for (const id of ids) this.#routes.set(id, route);
    this.#deliver(messages, context, ids);
    if (stream !== undefined) this.#started(stream);
  }

  /** A GET: opens (or, with `Last-Event-ID`, resumes) a stream; 409 (thrown) when one is open already. */
  async openStream(req: HttpRequest, res: ResponseSink): Promise<void> {
    this.lastSeen = Date.now();
    const store = this.#config.eventStore;
    const lastEventId = req.header('last-event-id');
    if (lastEventId !== undefined && store !== undefined && this.sessionId !== undefined) {
      const resumed = await resumeStream(res, lastEventId, {
        store,
        head: this.#sseHead,
        sessionId: this.sessionId,
        retryMs: this.#config.retryMs,
        nodeId: this.#config.nodeId,
        isGone: this.#config.isGone,
        closed: () => this.#closed,
        carrier: (streamId) => this.#streams.carrier(streamId),
      });
      if (typeof resumed === 'object' && resumed.stream.standalone) {
        // Carried on by this process's own GET stream: its priming event moves the client's
        // Last-Event-ID onto that stream at once, so a later resumption replays what is written here.
        if (resumed.from !== resumed.stream.id) resumed.stream.prime(store, undefined, (s) => s.flush());
        this.#config.onHold?.(this, { stream: resumed.from, through: resumed.through });
      }
      if (resumed !== 'fresh') return;
    }
    const standalone = this.#streams.standaloneStream();
    if (writable(standalone.res))
      refuse(conflict(-32000, 'Conflict: only one standalone SSE stream is allowed per session'));
    standalone.head = this.#sseHead;
    this.#prime(standalone, res, this.protocolVersion);
    standalone.start();
    this.#config.onHold?.(this);
  }

  /** The id of this session's GET stream here, if it has one. */
  get standaloneId(): string | undefined {
    return this.#streams.standalone?.id;
  }

  /** A connection-wide message another process raised, for the GET stream connected here. */
  sendForwarded(message: JsonRpcMessage): void {
    if (this.#closed || !this.standaloneConnected) return;
    this.#streams
      .standaloneStream()
      .emit(encodeJson(message), this.#config.eventStore, this.#config.maxBacklog, false, true);
  }

  /**
   * Another process holds this session's GET stream now: close the connection here. When it resumed this
   * one's GET stream through event `after`, the messages raised here and stored after it are returned, to
   * be passed on to it (those other processes raised are not: it got them itself).
   */
  async releaseStandalone(stream?: string, after?: string): Promise<JsonRpcMessage[]> {
    return this.#streams.releaseStandalone(this.#config.eventStore, stream, after);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (Array.isArray(message)) {
      for (const one of message) this.send(one, options);
      return;
    }
    if (this.#closed) {
      this.onerror?.(new Error('HTTP transport is closed; message dropped'));
      return;
    }
    if (this.#config.nodeId !== undefined) message = tagOutgoing(message, this.#config.nodeId);
    // As text first: an unserialisable message throws here, and the error answering it still finds the route.
    const text = encodeJson(message);
    const store = this.#config.eventStore;
    if (message.method === undefined && message.id === null && this.#delivering !== undefined) {
      this.#answerWhole(text, this.#delivering);
      return;
    }
    if (message.method === undefined && message.id !== undefined) {
      const id = message.id as RequestId;
      const route = this.#routes.get(id);
      if (route === undefined) return;
      this.#routes.delete(id);
      if (this.#admissions.answered(id)) {
        this.#dropRefused(id, route);
        return;
      }
      if (id === this.#initId) this.#learnVersion(message);
      const retryAfter = message.error === undefined ? undefined : retryAfterOf(message);
      const done = answerRoute(route, text, this.#writer, false, retryAfter);
      if (done !== undefined) this.#streams.delete(done.id);
      this.#afterResponse();
      return;
    }
    const related = options?.relatedRequestId;
    if (related !== undefined) {
      const route = this.#routes.get(related);
      if (route instanceof SseStream && (this.sessionId !== undefined || message.id === undefined)) {
        route.emit(text, store, this.#config.maxBacklog, false);
        return;
      }
      // A JSON response carries only the response: request-related notifications cannot travel.
      if (route !== undefined && message.id === undefined) return;
    }
    if (this.sessionId === undefined) {
      // The client's answer would arrive in a request that knows nothing of this one: fail at once.
      const id = message.method === undefined ? undefined : (message.id as RequestId | undefined);
      if (id !== undefined) queueMicrotask(() => this.onmessage?.(statelessRefusal(id)));
      return;
    }
    if (!this.standaloneConnected && this.#config.elsewhere?.(message) === true) return;
    this.#streams.standaloneStream().emit(text, store, this.#config.maxBacklog, false);
  }

  /**
   * Close the connection of the stream answering `requestId` (not the stream), telling the client to resume
   * in `retryMs`. False when not possible (no such stream, JSON mode, no event store).
   */
  closeRequestStream(requestId: RequestId, retryMs = this.#config.retryMs): boolean {
    const route = this.#routes.get(requestId);
    if (!(route instanceof SseStream) || this.#config.eventStore === undefined) return false;
    route.detach(sseRetry(retryMs));
    return true;
  }

  /** Close the standalone stream's connection (the client reconnects with `Last-Event-ID`). */
  closeStandaloneStream(retryMs = this.#config.retryMs): boolean {
    if (this.#streams.standalone === undefined || this.#config.eventStore === undefined) return false;
    this.#streams.standalone.detach(sseRetry(retryMs));
    return true;
  }

  /** Whether `streamId` is a POST stream of this session here whose requests still wait for answers. */
  carriesCall(streamId: string): boolean {
    const stream = this.#streams.get(streamId);
    return stream !== undefined && !stream.standalone;
  }

  /** Answer every request still waiting here with `error(id)`, as any answer; resolves once stored. */
  async answerPending(error: (id: RequestId) => JsonRpcMessage): Promise<void> {
    const streams = [...new Set(this.#routes.values())].filter((r) => r instanceof SseStream);
    for (const id of [...this.#routes.keys()]) this.send(error(id));
    await Promise.all(streams.map((stream) => stream.tail));
  }

  /** End the session here; `forgetEvents: false` keeps its event log (another process serves it). */
  async close(forgetEvents = true): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const route of this.#routes.values()) closeRoute(route);
    this.#streams.clear();
    this.#routes.clear();
    this.#admissions.drop();
    const store = this.#config.eventStore;
    if (store !== undefined && this.sessionId !== undefined && forgetEvents) {
      await Promise.resolve(store.forget(`${this.sessionId}.`)).catch((error: unknown) =>
        this.onerror?.(error instanceof Error ? error : new Error(String(error))),
      );
    }
    this.#config.onEnd?.(this);
    this.onclose?.();
  }

  /** A refused request's answer is not written (the stage answers); a session whose initialize it was ends. */
  #dropRefused(id: RequestId, route: Route): void {
    if (route instanceof SseStream) this.#streams.delete(route.id);
    if (id === this.#initId) {
      this.#config.onRefusedStart?.();
      void this.close();
    } else this.#afterResponse();
  }

  /** A POST stream's request is under way: a synchronous answer left with the head, else hold the head. */
  #started(stream: SseStream): void {
    if (stream.tail === undefined) this.#headHold.hold(stream); // after the priming event is stored
    stream.watch();
  }

  #deliver(message: unknown, context: MessageContext, ids: RequestId[]): void {
    this.#delivering = ids;
    try {
      this.onmessage?.(message, context);
    } finally {
      this.#delivering = undefined;
    }
  }

  /** An error with id null while a POST is delivered (its body as a whole was refused): all its requests' answer. */
  #answerWhole(text: string, ids: RequestId[]): void {
    const route = this.#routes.get(ids[0] as RequestId);
    for (const id of ids) {
      this.#routes.delete(id);
      this.#admissions.answered(id);
    }
    const done = route === undefined ? undefined : answerRoute(route, text, this.#writer, true);
    if (done !== undefined) this.#streams.delete(done.id);
    this.#afterResponse();
  }

  /** The priming event (resumable sessions whose client understands empty data). */
  #prime(
    stream: SseStream,
    res: ResponseSink,
    version: string | undefined,
    requests?: readonly RequestId[],
  ): void {
    const store = this.#config.eventStore;
    stream.attach(res);
    if (store === undefined || this.sessionId === undefined) return;
    const effective = this.protocolVersion ?? version;
    if (effective === undefined || effective < '2025-11-25') return;
    stream.prime(store, requests, this.#hold);
  }

  readonly #hold = (stream: SseStream): void => this.#headHold.hold(stream);

  #learnVersion(message: JsonRpcMessage): void {
    const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof version === 'string') this.protocolVersion = version;
  }

  /** Stateless transports live for one request: close once it is answered. */
  #afterResponse(): void {
    if (this.sessionId === undefined && this.#routes.size === 0) void this.close();
  }
}
