/**
 * One 2026-07-28 request over Streamable HTTP, from its POST to its answer: no session, no GET
 * stream, no resumability. The answer is one JSON body (status by error code), or an SSE stream
 * once the request sends notifications (progress, log messages, listen events): without event
 * ids, with keep-alive comments while it stays open (the framing and the comments are sse.ts's and
 * keep-alive.ts's, shared with the legacy streams).
 */

import type { ServerResponse } from 'node:http';
import { retryAfterOf } from '../core/errors.js';
import { encodeJson } from '../core/raw-json.js';
import type {
  JsonRpcMessage,
  MessageContext,
  RequestId,
  SendOptions,
  Transport,
} from '../transport/types.js';
import { modernStatus } from './era.js';
import type { KeepAlive, Pingable } from './keep-alive.js';
import { type Head, withLength } from './reply.js';
import { SSE_KEEP_ALIVE, sseEvent, sseHeaders, writable } from './sse.js';

const SSE_HEAD = sseHeaders(undefined);
const JSON_HEAD: Head = ['content-type', 'application/json'];

export interface ExchangeOptions {
  /** Answer with one JSON body even when the request sends notifications (they are dropped). */
  readonly jsonResponse: boolean;
  /** Writes comments on an open SSE stream. */
  readonly keepAlive: KeepAlive;
}

export class ModernExchange implements Transport, Pingable {
  onmessage?: (message: unknown, context?: MessageContext) => void;
  onparseerror?: (error: Error) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sessionId = undefined;

  #id: RequestId | undefined;
  #streaming = false;
  #stream = false;
  #closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: ExchangeOptions,
  ) {}

  async start(): Promise<void> {}

  /** Hand the request to the core. A listen request always answers on a stream. */
  deliver(message: JsonRpcMessage, context: MessageContext): void {
    this.#id = message.id as RequestId;
    this.#stream = !this.options.jsonResponse || message.method === 'subscriptions/listen';
    this.res.once('close', () => void this.close());
    this.onmessage?.(message, context);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.#closed || Array.isArray(message)) return;
    if (message.method === undefined) {
      if (message.id === this.#id) this.#answer(message);
      return;
    }
    // Only notifications of this request travel, and only on a stream; the server sends no requests.
    if (message.id !== undefined || options?.relatedRequestId !== this.#id || !this.#stream) return;
    this.#open();
    this.res.write(sseEvent(undefined, encodeJson(message)));
  }

  /** A keep-alive comment, while the stream is open. */
  ping(): void {
    if (writable(this.res)) this.res.write(SSE_KEEP_ALIVE);
  }

  #open(): void {
    if (this.#streaming) return;
    this.#streaming = true;
    this.res.writeHead(200, SSE_HEAD as string[]);
    this.options.keepAlive.add(this);
  }

  #answer(message: JsonRpcMessage): void {
    const text = encodeJson(message);
    if (this.#streaming) this.res.end(sseEvent(undefined, text));
    else if (writable(this.res)) {
      const retryAfter = message.error === undefined ? undefined : retryAfterOf(message);
      const head = retryAfter === undefined ? JSON_HEAD : JSON_HEAD.concat('retry-after', String(retryAfter));
      this.res.writeHead(modernStatus(message as { error?: { code?: unknown } }), withLength(head, text));
      this.res.end(text);
    }
    void this.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.options.keepAlive.remove(this);
    if (!this.res.writableEnded) this.res.end();
    this.onclose?.();
  }
}
