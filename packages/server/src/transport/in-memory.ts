/**
 * Two linked transports in one process, for tests and embedding. Each message goes through JSON
 * text on the way (as it would on a wire) and is delivered on a later microtask. Either end also fits
 * the official SDK clients' `Transport` (v1 and v2): `send` returns a promise, so
 * `new Client(...).connect(clientSide)` works against `server.connect(serverSide)`.
 */

import { encodeJson } from '../core/raw-json.js';
import type { JsonRpcMessage, MessageContext, SendOptions, Transport } from '../core/transport.js';

export interface InMemoryTransportOptions {
  /** A session id the server side reports (as a stateful HTTP transport would). */
  sessionId?: string;
  /** A message context attached to every message delivered to the server side (e.g. headers). */
  context?: MessageContext;
}

export class InMemoryTransport implements Transport {
  peer: InMemoryTransport | undefined;
  readonly sessionId: string | undefined;
  /** The protocol version a client set after its handshake (`setProtocolVersion`), if any. */
  protocolVersion: string | undefined;
  private readonly context: MessageContext | undefined;
  private started = false;
  private closed = false;
  private readonly inbox: string[] = [];
  /**
   * The server end passes the `context` given in the options; the client end passes none. Typed wider
   * than `MessageContext` so an SDK client's own callback (which takes its `MessageExtraInfo`) fits.
   */
  onmessage?: (message: unknown, context?: MessageContext | object) => void;
  onparseerror?: (error: Error, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(options: InMemoryTransportOptions = {}) {
    this.sessionId = options.sessionId;
    this.context = options.context;
  }

  async start(): Promise<void> {
    this.started = true;
    const queued = this.inbox.splice(0);
    for (const text of queued) this.deliver(text);
  }

  /**
   * Resolves once the message is queued for the peer. On a closed pair the message is dropped: the
   * promise rejects (for a client that awaits it) and `onerror` hears of it (for the server core, which
   * does not await); the rejection is marked handled, so nobody's process sees an unhandled one.
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.closed || this.peer === undefined || this.peer.closed) {
      const error = new Error('send on a closed in-memory transport');
      this.onerror?.(error);
      const refused = Promise.reject(error);
      refused.catch(() => {});
      return refused;
    }
    this.peer.receiveText(encodeJson(message));
    return Promise.resolve();
  }

  /** Called by the official SDK clients once they have negotiated; kept for tests to read. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** Deliver raw text as if it arrived on the wire (lets tests send malformed frames). */
  receiveText(text: string): void {
    if (this.closed) return;
    if (!this.started) {
      this.inbox.push(text);
      return;
    }
    queueMicrotask(() => this.deliver(text));
  }

  private deliver(text: string): void {
    if (this.closed) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      this.onparseerror?.(error as Error, this.context);
      return;
    }
    this.onmessage?.(message, this.context);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
    const peer = this.peer;
    if (peer !== undefined && !peer.closed) await peer.close();
  }
}

/** `[client, server]`: whatever one side sends, the other receives. */
export function createInMemoryTransportPair(
  serverOptions: InMemoryTransportOptions = {},
): [InMemoryTransport, InMemoryTransport] {
  const client = new InMemoryTransport();
  const server = new InMemoryTransport(serverOptions);
  client.peer = server;
  server.peer = client;
  return [client, server];
}
