/**
 * A scripted MCP client over any `ClientHandle`: sends requests and notifications, matches
 * responses by id, answers the server's requests, and records notifications.
 */

export type Message = Record<string, unknown> & { id?: string | number | null; method?: string };

/** The client end of a transport under test. */
export interface ClientHandle {
  /** Deliver one message (or a batch array) to the server. */
  send(message: unknown): void | Promise<void>;
  /** The next message the server sent, in order; rejects once the connection is closed. */
  next(): Promise<Message>;
  /** Close the client end. */
  close(): Promise<void>;
  /** Deliver raw text as one frame, when the transport can (not HTTP). */
  sendRaw?(text: string): void | Promise<void>;
}

type ServerRequestHandler = (message: Message) => unknown | Promise<unknown>;

export class Peer {
  readonly notifications: Message[] = [];
  readonly serverRequests: Message[] = [];
  /** Every message received, in order. */
  readonly received: Message[] = [];
  private readonly pending = new Map<string | number, (message: Message) => void>();
  private readonly waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private nextId = 0;
  closed = false;
  initializeResult: Record<string, unknown> | undefined;
  onServerRequest: ServerRequestHandler | undefined;

  constructor(readonly handle: ClientHandle) {
    void this.loop();
  }

  private async loop(): Promise<void> {
    for (;;) {
      let message: Message;
      try {
        message = await this.handle.next();
      } catch {
        this.closed = true;
        return;
      }
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    this.received.push(message);
    if (Array.isArray(message)) {
      for (const item of message as Message[]) this.dispatch(item);
    } else if (typeof message.method === 'string') {
      if (message.id !== undefined) {
        this.serverRequests.push(message);
        void this.answer(message);
      } else {
        this.notifications.push(message);
      }
    } else if (message.id !== undefined && message.id !== null && this.pending.has(message.id)) {
      const resolve = this.pending.get(message.id) as (m: Message) => void;
      this.pending.delete(message.id);
      resolve(message);
    }
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i] as (typeof this.waiters)[number];
      if (waiter.match(message)) {
        this.waiters.splice(i--, 1);
        waiter.resolve(message);
      }
    }
  }

  private async answer(message: Message): Promise<void> {
    const id = message.id as string | number;
    if (this.onServerRequest === undefined) {
      await this.handle.send({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'no handler in test peer' },
      });
      return;
    }
    try {
      const result = await this.onServerRequest(message);
      await this.handle.send({ jsonrpc: '2.0', id, result });
    } catch (error) {
      await this.handle.send({ jsonrpc: '2.0', id, error: { code: -32603, message: String(error) } });
    }
  }

  /** Send a request and resolve with the whole response message. */
  request(method: string, params?: Record<string, unknown>, id?: string | number): Promise<Message> {
    const requestId = id ?? ++this.nextId;
    const answered = new Promise<Message>((resolve) => this.pending.set(requestId, resolve));
    const message: Message = { jsonrpc: '2.0', id: requestId, method };
    if (params !== undefined) message.params = params;
    void this.handle.send(message);
    return answered;
  }

  /** Send a request and resolve with its result; reject with the error object when it failed. */
  async call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await this.request(method, params);
    if (response.error !== undefined)
      throw Object.assign(new Error(JSON.stringify(response.error)), response.error);
    return response.result as Record<string, unknown>;
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> | void {
    return this.handle.send(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  /** The first message (already received or still to come) matching `match`. */
  waitFor(match: (m: Message) => boolean, timeoutMs = 10_000): Promise<Message> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('waitFor timed out')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  waitForNotification(method: string, timeoutMs?: number): Promise<Message> {
    return this.waitFor((m) => m.method === method && m.id === undefined, timeoutMs);
  }

  async initialize(
    capabilities: Record<string, unknown> = {},
    protocolVersion = '2025-11-25',
  ): Promise<Record<string, unknown>> {
    const result = await this.call('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'test-peer', version: '1.0.0' },
    });
    await this.notify('notifications/initialized');
    this.initializeResult = result;
    return result;
  }
}
