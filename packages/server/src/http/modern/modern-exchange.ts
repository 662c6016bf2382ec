/**
 * One 2026-07-28 request over Streamable HTTP, from its POST to its answer: no session, no GET
 * stream, no redelivery. The answer is one JSON body (status by error code), or an SSE stream once
 * the request sends notifications (progress, log messages, listen events), with keep-alive comments
 * while it stays open (the framing and the comments are sse.ts's and keep-alive.ts's, shared with the
 * legacy streams). A call's stream opens with a priming event whose id lets its client ask what became
 * of the call if the stream breaks (modern-calls.ts); no other event carries an id.
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
import { Admission } from '../seam/admission.js';
import { type Head, withLength } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { KeepAlive, Pingable } from '../streams/keep-alive.js';
import { SSE_KEEP_ALIVE, sseEvent, sseHeaders, writable } from '../streams/sse.js';
import type { CallStream, ModernCalls } from './modern-calls.js';
import { modernStatus } from './status.js';

const SSE_HEAD = sseHeaders(undefined);
const JSON_HEAD: Head = ['content-type', 'application/json'];

export interface ExchangeOptions {
  /** Answer with one JSON body even when the request sends notifications (they are dropped). */
  readonly jsonResponse: boolean;
  /** Writes comments on an open SSE stream. */
  readonly keepAlive: KeepAlive;
  /** The calls of this handler (tokens, outcomes, the drain); none for an exchange nobody counts. */
  readonly calls?: ModernCalls;
}

export class ModernExchange implements Transport, Pingable, CallStream {
  onmessage?: (message: unknown, context?: MessageContext) => void;
  onparseerror?: (error: Error) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sessionId = undefined;
  principal: string | undefined;

  #res: ResponseSink;
  #id: RequestId | undefined;
  #listen = false;
  #streaming = false;
  #stream = false;
  #closed = false;
  /** The call's token (once its stream opened), and its answer's text (once answered). */
  #key: string | undefined;
  #answer: string | undefined;
  /** Whether the core admitted the request: until then nothing is written, so a refusal can be a status. */
  #admission: Admission | undefined;

  constructor(
    res: ResponseSink,
    private readonly options: ExchangeOptions,
  ) {
    this.#res = res;
  }

  get isCall(): boolean {
    return !this.#listen;
  }

  get requestId(): RequestId | undefined {
    return this.#id;
  }

  async start(): Promise<void> {}

  /**
   * Hand the request to the core. A listen request always answers on a stream. Settles once the core admitted
   * it (undefined: at once), or throws (rejects) with its refusal, for the stage to answer with a status.
   */
  deliver(message: JsonRpcMessage, context: MessageContext): Promise<void> | undefined {
    this.#id = message.id as RequestId;
    this.#listen = message.method === 'subscriptions/listen';
    this.#stream = !this.options.jsonResponse || this.#listen;
    this.principal = context.principal;
    this.options.calls?.opened(this);
    this.#watch(this.#res);
    this.#admission = new Admission();
    this.onmessage?.(message, context);
    return this.#admission.outcome();
  }

  /** The core's admission of the request. */
  admission(id: RequestId, refusal: McpError | undefined): void {
    if (id === this.#id) this.#admission?.decide(refusal);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.#closed || Array.isArray(message)) return;
    if (message.method === undefined) {
      if (message.id === this.#id) this.#respond(encodeJson(message), message);
      return;
    }
    // Only notifications of this request travel, and only on a stream; the server sends no requests.
    if (message.id !== undefined || options?.relatedRequestId !== this.#id || !this.#stream) return;
    this.#open();
    if (writable(this.#res)) this.#res.write(sseEvent(undefined, encodeJson(message)));
  }

  /** A keep-alive comment, while the stream is open. */
  ping(): void {
    if (writable(this.#res)) this.#res.write(SSE_KEEP_ALIVE);
  }

  /** The client came back with the call's token (its old connection is let go): go on on `res`. */
  reattach(res: ResponseSink, priming: string): void {
    const old = this.#res;
    this.#res = res;
    if (writable(old)) old.end();
    res.writeHead(200, SSE_HEAD as string[]);
    res.write(priming);
    this.#watch(res);
  }

  /** Answer with `text` (an error for the call, when the drain grace is over). */
  answerWith(text: string): void {
    this.#respond(text, JSON.parse(text) as JsonRpcMessage);
  }

  #watch(res: ResponseSink): void {
    res.once('close', () => {
      if (this.#res === res) void this.close();
    });
  }

  #open(): void {
    if (this.#streaming) return;
    this.#streaming = true;
    this.#res.writeHead(200, SSE_HEAD as string[]);
    const calls = this.options.calls;
    if (calls !== undefined && !this.#listen && this.#id !== undefined) {
      const { key, priming } = calls.token(this, this.#id);
      this.#key = key;
      this.#res.write(priming);
    }
    this.options.keepAlive.add(this);
  }

  #respond(text: string, message: JsonRpcMessage): void {
    if (this.#closed) return;
    this.#answer = text;
    this.#admission?.decide(undefined);
    if (this.#admission?.refused === true) {
      // Refused before it ran: the stage answers with a status.
    } else if (this.#streaming) {
      if (writable(this.#res)) this.#res.end(sseEvent(undefined, text));
    } else if (writable(this.#res)) {
      const retryAfter = message.error === undefined ? undefined : retryAfterOf(message);
      const head = retryAfter === undefined ? JSON_HEAD : JSON_HEAD.concat('retry-after', String(retryAfter));
      this.#res.writeHead(modernStatus(message as { error?: { code?: unknown } }), withLength(head, text));
      this.#res.end(text);
    }
    void this.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.options.keepAlive.remove(this);
    this.options.calls?.closed(this, this.#key, this.#answer);
    this.#admission?.drop();
    if (!this.#res.writableEnded && this.#admission?.refused !== true) this.#res.end();
    this.onclose?.();
  }
}
