/**
 * The boundary between the protocol core and the outside world. The core never touches a stream, a
 * socket or `process`; a transport moves JSON-RPC messages in and out and nothing else. HTTP-only
 * concerns (sessions, SSE, headers) stay inside the HTTP transport.
 */

export type RequestId = string | number;

/** A JSON-RPC 2.0 message as it travels on the wire (already parsed, not yet validated). */
export type JsonRpcMessage = Record<string, unknown>;

/** What a transport knows about the frame that carried a message, passed to the core beside it. */
export interface MessageContext {
  /** Request headers, lower-cased names (HTTP only; undefined on stdio and in memory). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Whatever an authentication hook attached to the request (HTTP only). */
  readonly auth?: unknown;
}

export interface SendOptions {
  /** The id of the client request this message belongs to, so HTTP can route it to that stream. */
  readonly relatedRequestId?: RequestId;
}

export interface Transport {
  /** Begin delivering messages to `onmessage`. */
  start(): Promise<void>;
  /** Queue one message for the peer. Must not throw for a closed transport; drop and report via onerror. */
  send(message: JsonRpcMessage, options?: SendOptions): void;
  /** Stop reading, flush what is queued, release resources; calls `onclose` once. */
  close(): Promise<void>;

  /**
   * A parsed message arrived. `message` is whatever JSON the frame held (the core classifies it).
   * A frame that is not JSON at all is reported through `onparseerror` instead.
   */
  onmessage?: (message: unknown, context?: MessageContext) => void;
  /** A frame could not be parsed as JSON (or broke a transport limit); the core answers -32700/-32600. */
  onparseerror?: (error: Error, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}
