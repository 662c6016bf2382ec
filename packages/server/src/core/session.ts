/**
 * A session binds one transport to a server's shared registries: it reads messages, serves
 * requests, routes the client's answers to server-initiated requests, and keeps what the 2025
 * revisions tie to a connection (the initialize result, the log floor, resource subscriptions).
 */

import { BatchCollector } from './batch.js';
import { checkBatch } from './batch-rules.js';
import { classify, describeInvalid, Kind } from './envelope.js';
import { ErrorCode, LocalError, McpError, type WireError } from './errors.js';
import { deliverNotification } from './extensions/notify.js';
import type { PeerRequestOptions, RequestId } from './handler-types.js';
import type { Batch, ServerHost } from './host.js';
import { IdTable } from './id-table.js';
import { checkJsonLimits, overLimitAnswer } from './json-limits.js';
import { isThenable } from './later.js';
import { levelRank, redact } from './logging.js';
import { isEnveloped } from './modern/envelope.js';
import { PeerRequests } from './peer-requests.js';
import type { ClientContext } from './protocol.js';
import { rateCaller } from './rate-limit/caller.js';
import type { RateAnswer } from './rate-limit/limiter.js';
import { serialisable, unserialisable } from './replies.js';
import type { RequestState } from './request/request.js';
import { type Routed, type RoutingConnection, routeRequest } from './request/routing.js';
import type { ConnectOptions, Session } from './session-api.js';
import type { Operation } from './telemetry/operation.js';
import type { JsonRpcMessage, MessageContext, Transport } from './transport.js';
import type { LogLevel } from './types.js';
import { LIST_CHANGED } from './visibility/announce.js';
import { callerOf } from './visibility/rule.js';
import { View } from './visibility/view.js';

export type { ConnectOptions, Session };

export class SessionImpl implements Session, RoutingConnection {
  client: ClientContext | undefined;
  /** Set by the first modern request (other than a bare `server/discover`): the connection is 2026-07-28. */
  modern = false;
  initializedNotified = false;
  closed = false;
  private ending = false;
  logFloor = 0;
  readonly subscriptions = new Set<string>();
  readonly inflight = new IdTable<RequestState>();
  /** What this session's caller sees of each list, to announce only changes of it. */
  readonly view: View;
  private readonly peerRequests: PeerRequests;
  private key: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onnotification?: (method: string, params: Record<string, unknown> | undefined) => void;

  constructor(
    readonly server: ServerHost,
    readonly transport: Transport,
    private readonly options: ConnectOptions,
  ) {
    this.view = new View(server);
    this.peerRequests = new PeerRequests(
      (message, related) => this.send(message, related),
      server.options.requestTimeoutMs,
    );
    transport.onmessage = (message, context) => this.receive(message, context);
    transport.onparseerror = (error) => {
      const code = (error as { jsonRpcCode?: number }).jsonRpcCode ?? ErrorCode.ParseError;
      server.telemetry.rejected(code === ErrorCode.ParseError ? 'validation' : 'limits');
      this.sendError(null, {
        code,
        message: code === ErrorCode.ParseError ? `Parse error: ${error.message}` : error.message,
      });
    };
    transport.onend = () => {
      this.ending = true;
      if (this.inflight.size === 0) void this.close();
    };
    transport.onclose = () => this.handleClose();
    transport.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  get connectionKey(): string {
    if (this.key === undefined) this.key = crypto.randomUUID();
    return this.key;
  }

  get ephemeral(): boolean {
    return this.options.ephemeral === true;
  }

  get network(): string | undefined {
    return this.transport.network;
  }

  get allowUninitialized(): boolean {
    return this.options.allowUninitialized === true;
  }

  // Incoming

  receive(message: unknown, context?: MessageContext): void {
    if (this.closed) return;
    try {
      this.dispatch(message, context);
    } catch (error) {
      // Last resort: nothing a message does may take the transport (and the process) down with it.
      // A request still gets its answer; a notification never does.
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id === 'string' || typeof id === 'number') {
        this.sendError(id, {
          code: ErrorCode.InternalError,
          message: `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private dispatch(message: unknown, context: MessageContext | undefined): void {
    if (!this.ephemeral) this.observe(context);
    if (typeof message !== 'object' || message === null) {
      this.server.telemetry.rejected('validation');
      const bad = describeInvalid(message);
      this.sendError(bad.id, bad.error);
      return;
    }
    const limit = checkJsonLimits(message, this.server.options);
    if (limit !== undefined) {
      this.server.telemetry.rejected('limits');
      const answer = overLimitAnswer(message, limit);
      this.send(answer, Array.isArray(answer) ? undefined : ((answer.id as RequestId | null) ?? undefined));
      return;
    }
    if (Array.isArray(message)) this.receiveBatch(message, context);
    else this.receiveOne(message as Record<string, unknown>, context, undefined);
  }

  private receiveBatch(messages: unknown[], context: MessageContext | undefined): void {
    const verdict = checkBatch(this.client?.protocolVersion, messages);
    if (verdict.refusal !== undefined) {
      this.server.telemetry.rejected('validation');
      this.sendError(null, { code: ErrorCode.InvalidRequest, message: verdict.refusal });
      return;
    }
    const batch = new BatchCollector((messages) => this.send(messages));
    batch.expected = verdict.requestIds.length;
    for (const item of messages) this.receiveOne(item as Record<string, unknown>, context, batch);
    batch.seal();
  }

  private receiveOne(
    message: Record<string, unknown>,
    context: MessageContext | undefined,
    batch?: Batch,
  ): void {
    switch (classify(message)) {
      case Kind.Request:
        this.handleRequest(message, context, batch);
        return;
      case Kind.Notification:
        this.handleNotification(
          message.method as string,
          message.params as Record<string, unknown> | undefined,
          context,
        );
        return;
      case Kind.Response:
        this.peerRequests.settle(message);
        return;
      default: {
        this.server.telemetry.rejected('validation');
        const bad = describeInvalid(message);
        this.sendError(bad.id, bad.error, batch);
      }
    }
  }

  private handleRequest(
    message: Record<string, unknown>,
    context: MessageContext | undefined,
    batch?: Batch,
  ): void {
    const method = message.method as string;
    const id = message.id as RequestId;
    const params = message.params as Record<string, unknown> | undefined;
    const op = this.server.telemetry.request(method, id, params, context, this);
    const routed = routeRequest(this, id, method, params, context, batch);
    if (!('req' in routed)) {
      this.sendError(id, routed, batch, op);
      return;
    }
    // The transport's own replay of a session's earlier requests is not a client's request: it takes no token.
    const limiter = context?.replay === true ? undefined : this.server.rateLimiter;
    const answer = limiter?.check(method, params, rateCaller(this, context));
    if (!isThenable(answer)) this.limited(routed, answer, op);
    else answer.then((a) => this.limited(routed, a, op));
  }

  /**
   * Admit a request its rate limit allows; answer one it refuses (or the store could not be asked). The
   * transport learns it first for a request sent alone (HTTP answers a refusal with a status).
   */
  private limited(routed: Routed, answer: RateAnswer, op: Operation | undefined): void {
    if (routed.req.batch === undefined) this.transport.admission?.(routed.req.requestId, answer);
    if (answer === undefined) {
      if (!this.closed) this.admit(routed.req, routed.scheduled, op);
      return;
    }
    this.server.telemetry.rejected('limits');
    routed.req.op = op;
    routed.req.fail(answer);
  }

  /** Start (or queue) a routed request, unless its id is already in flight. */
  private admit(req: RequestState, scheduled: boolean, op: Operation | undefined): void {
    const id = req.requestId;
    if (this.inflight.has(id)) {
      this.sendError(
        id,
        {
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: request id ${JSON.stringify(id)} is already in use`,
        },
        req.batch,
        op,
      );
      return;
    }
    req.op = op;
    if (!scheduled) {
      req.start();
    } else if (!this.server.scheduler.submit(req)) {
      req.fail(
        new McpError(
          ErrorCode.ServerBusy,
          `Server busy: ${this.server.options.maxQueued} requests are already waiting (maxQueued); retry later`,
        ),
      );
    }
    // Answered already (synchronous handler) or still running/queued: only the latter can be cancelled.
    if (!req.finished) this.inflight.set(id, req);
  }

  private handleNotification(
    method: string,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
  ): void {
    const op = this.server.telemetry.notification(method, params, context, this);
    if (op === undefined) this.notified(method, params, context);
    else op.run((p) => this.notified(method, p, context), params);
    op?.end(undefined, this.client?.protocolVersion);
  }

  private notified(
    method: string,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
  ): void {
    if (method === 'notifications/cancelled') {
      const req = params === undefined ? undefined : this.inflight.get(params.requestId as RequestId);
      if (req !== undefined && req.method !== 'initialize') req.cancel(params?.reason);
      return;
    }
    if (method === 'notifications/initialized') {
      this.initializedNotified = true;
      return;
    }
    const custom = this.server.extensions.notifications.get(method);
    if (custom !== undefined) {
      const era = this.modern || (this.client === undefined && isEnveloped(params)) ? 'modern' : 'legacy';
      deliverNotification(custom, method, params, era, this, context, (error) => this.onerror?.(error));
      return;
    }
    this.onnotification?.(method, params);
  }

  /** A message's caller: when its lists differ from the previous caller's (new scopes), say so. */
  private observe(context: MessageContext | undefined): void {
    const changed = this.view.observe(callerOf(context));
    if (this.client === undefined || !this.server.options.listChanged) return;
    for (const kind of changed) this.notify(LIST_CHANGED[kind]);
  }

  // Outgoing

  send(message: JsonRpcMessage | JsonRpcMessage[], relatedRequestId?: RequestId): void {
    if (this.closed) return;
    try {
      this.transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** The answer to a request (batched when the request came in a batch). */
  reply(req: RequestState, message: Record<string, unknown>): void {
    this.answer(req, message);
    req.op?.end(message, req.era === 'modern' ? req.protocolVersion : this.client?.protocolVersion);
  }

  private answer(req: RequestState, message: Record<string, unknown>): void {
    if (req.batch !== undefined) {
      req.batch.add(message.result === undefined ? message : serialisable(message, req.method));
      return;
    }
    if (this.closed) return;
    try {
      this.transport.send(message, { relatedRequestId: req.requestId });
    } catch (error) {
      // A result the transport could not serialise (a BigInt, a cycle) is still answered.
      if (message.result === undefined) this.onerror?.(error as Error);
      else
        this.send(
          { jsonrpc: '2.0', id: req.requestId, error: unserialisable(req.method, error) },
          req.requestId,
        );
    }
  }

  /** A request finished one way or another: forget it and free its handler slot. */
  settled(req: RequestState): void {
    this.inflight.delete(req.requestId, req);
    if (req.started) this.server.scheduler.release(req);
    if (this.ending && this.inflight.size === 0) queueMicrotask(() => void this.close());
  }

  private sendError(id: RequestId | null, error: WireError, batch?: Batch, op?: Operation): void {
    const message = { jsonrpc: '2.0', id, error };
    if (batch !== undefined) batch.add(message);
    else this.send(message, id ?? undefined);
    op?.end(message, this.client?.protocolVersion);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  log(level: LogLevel, logger: string | undefined, data: unknown): void {
    this.logFor(level, logger, data, undefined);
  }

  logFor(level: LogLevel, logger: string | undefined, data: unknown, related: RequestId | undefined): void {
    if (!this.server.options.logging || levelRank(level) < this.logFloor) return;
    this.emitLog(level, logger, this.server.options.redactLogs ? redact(data) : data, related);
  }

  /** Send an already-scrubbed log message if it passes this session's floor. */
  emitLog(level: LogLevel, logger: string | undefined, data: unknown, related?: RequestId): void {
    if (levelRank(level) < this.logFloor) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send({ jsonrpc: '2.0', method: 'notifications/message', params }, related);
  }

  request<T = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: PeerRequestOptions,
  ): Promise<T> {
    return this.requestFor<T>(method, params, options, undefined);
  }

  /** A server-to-client request; when `origin` is given it is tied to (and cancelled with) that request. */
  requestFor<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: PeerRequestOptions | undefined,
    origin:
      | { readonly requestId?: RequestId; readonly signal: AbortSignal; readonly op?: Operation | undefined }
      | undefined,
  ): Promise<T> {
    if (this.closed) {
      return Promise.reject(new LocalError('CLOSED', `Cannot send ${method}: the connection is closed`));
    }
    return this.server.telemetry.sent(method, params, origin?.op, this, (sent) =>
      this.peerRequests.start<T>(method, sent, options, origin?.requestId, origin?.signal),
    );
  }

  // Teardown

  close(): Promise<void> {
    return this.transport.close();
  }

  private handleClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const req of this.inflight.values()) req.drop();
    this.inflight.clear();
    this.peerRequests.failAll(
      () => new LocalError('CLOSED', 'The connection closed before the client answered'),
    );
    this.subscriptions.clear();
    this.server.telemetry.sessionClosed(this, this.client?.protocolVersion);
    this.server.detach(this);
    this.onclose?.();
  }
}
