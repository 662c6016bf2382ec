/**
 * The boundary between the protocol core and the outside world. The core never touches a stream, a
 * socket or `process`; a transport moves JSON-RPC messages in and out and nothing else. HTTP-only
 * concerns (sessions, SSE, headers) stay inside the HTTP transport.
 *
 * How the core uses a transport: `server.connect(transport)` assigns the four `on*` callbacks, then
 * calls `start()`. Every parsed frame goes to `onmessage` (with its context); the core answers through
 * `send`. A batch answer (protocol 2025-03-26 only) is one `send` of an array. Responses carry the
 * request's id as `relatedRequestId`; so do notifications and requests a handler makes while serving
 * that request (progress, log messages, elicitation), which lets HTTP put them on that request's stream.
 * Messages without `relatedRequestId` are connection-wide (list_changed, resources/updated, server.log).
 */

import type { McpError } from './errors.js';

export type RequestId = string | number;

/** A JSON-RPC 2.0 message as it travels on the wire. */
export type JsonRpcMessage = Record<string, unknown>;

/** What a transport knows about the frame that carried a message, passed to the core beside it. */
export interface MessageContext {
  /** Request headers, lower-cased names (HTTP only; undefined on stdio and in memory). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Whatever an authentication hook attached to the request (HTTP only). */
  readonly auth?: unknown;
  /**
   * The stable key of the authenticated caller, computed by the transport where it authenticates
   * (HTTP: `principalOf` of `@entropic-mcp/server/auth`); undefined without authentication.
   */
  readonly principal?: string;
  /**
   * The client the message comes from, as the HTTP per-client limits count it: `p:<principal>` when
   * authenticated, else `a:<address>` (behind a trusted proxy, the address it forwarded). Unauthenticated
   * tasks outside a session belong to it. HTTP only; undefined when the address is unknown.
   */
  readonly client?: string;
  /**
   * The protocol version the transport saw for this message (HTTP's `MCP-Protocol-Version`), used
   * for requests served without a prior initialize on the connection (stateless HTTP).
   */
  readonly protocolVersion?: string;
  /**
   * The transport replays a request the client made earlier, to rebuild a session's state (HTTP: a session
   * restored on another process replays its initialize): it is not limited as a new request.
   */
  readonly replay?: boolean;
}

export interface SendOptions {
  /** The id of the client request this message belongs to, so HTTP can route it to that stream. */
  readonly relatedRequestId?: RequestId;
}

export interface Transport {
  /** The transport's session id, if it has one (stateful Streamable HTTP). */
  readonly sessionId?: string;
  /**
   * Telemetry's `network.transport` for a transport that is not HTTP (stdio: `pipe`); messages that came
   * with HTTP headers are told apart by those.
   */
  readonly network?: string;
  /** Begin delivering messages to `onmessage`. */
  start(): Promise<void>;
  /**
   * Queue one message (or, for a 2025-03-26 batch answer, an array of them) for the peer.
   * Must not throw for a closed transport; drop and report via onerror.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void;
  /** Stop reading, flush what is queued, release resources; calls `onclose` once. */
  close(): Promise<void>;
  /**
   * Optional: told, for a request sent alone (not in a batch) that the core routed, whether it admitted it
   * (its rate limit): `refusal` undefined, it runs now; else it is refused without running. Its answer follows
   * as any answer; a transport that answers the refusal its own way (HTTP: a status, before the response
   * started) drops it.
   */
  admission?(id: RequestId, refusal: McpError | undefined): void;

  /**
   * A parsed message arrived. `message` is whatever JSON the frame held (the core classifies it).
   * A frame that is not JSON at all is reported through `onparseerror` instead.
   */
  onmessage?: (message: unknown, context?: MessageContext) => void;
  /**
   * A frame could not be parsed as JSON (answered -32700) or broke a transport limit (set
   * `jsonRpcCode` on the error, e.g. -32600, to answer with that code and the error's message).
   */
  onparseerror?: (error: Error & { jsonRpcCode?: number }, context?: MessageContext) => void;
  /**
   * Optional: the peer will send nothing more (stdin ended). The core answers what is in flight,
   * then calls `close()`. A transport that never calls it simply closes.
   */
  onend?: () => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}
