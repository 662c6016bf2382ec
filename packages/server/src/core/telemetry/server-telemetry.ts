/**
 * The telemetry of one server, hooked into request handling in one place (the session): a SERVER span per
 * request and notification in the MCP conventions' names and attributes, parented on the client's
 * `_meta.traceparent`; a CLIENT span per request the server sends; the conventions' duration histograms and
 * our gauges and counters. Everything goes through `@opentelemetry/api`: with no SDK registered, a request
 * costs one global lookup (api.ts, `otelInUse`), and the API is not even loaded.
 */

import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { MessageContext } from '../transport.js';
import { type Otel, otelInUse } from './api.js';
import { boundedErrorCode, boundedMethod, type KnownMethods, MAX_ORIGINAL_METHOD, OTHER } from './bounded.js';
import { parentContext, withTraceContext } from './carrier.js';
import { countRejected, instruments, SCOPE } from './instruments.js';
import { Attr, type RejectReason, TOOL_ERROR } from './names.js';
import { Operation, type OperationSink } from './operation.js';

/** What the telemetry reads of a connection. */
export interface ObservedConnection {
  readonly sessionId: string | undefined;
  /** The transport's `network.transport` when it is not HTTP (HTTP is told by its headers). */
  readonly network: string | undefined;
}

/**
 * What the telemetry reads of the server: which names are registered and which methods it serves (only those
 * name spans and series; any other method is `_OTHER`).
 */
export interface ObservedRegistry extends KnownMethods {
  readonly tools: { get(name: string): unknown };
  readonly prompts: { get(name: string): unknown };
}

interface SessionRecord {
  readonly started: number;
  readonly attributes: Attributes;
}

/** The lifetime of a task as a span: its handler's answer, then its end. */
/**
 * A task's span. Its handler runs in `run`, so what the handler traces (a plugin call, a Redis command) hangs
 * under the task, not under the short request that started it.
 */
export interface TaskTrace {
  /** Run `fn` with the task's span active. */
  run<R>(fn: () => R): R;
  /** The task was stored under `taskId`. */
  identify(taskId: string): void;
  outcome(message: Record<string, unknown>): void;
  end(): void;
  /**
   * 2026-07-28: the call was answered within the sync window (or asked for input) and no task was made; the
   * span ends with status `direct`. Does nothing once a task owns the span.
   */
  direct(): void;
}
const HTTP: Attributes = Object.freeze({ [Attr.networkTransport]: 'tcp', [Attr.networkProtocol]: 'http' });
const REJECTED_BY_CODE: Readonly<Record<string, RejectReason>> = {
  '-32700': 'validation',
  '-32600': 'validation',
  '-32602': 'validation',
  '-32000': 'limits',
};

export class ServerTelemetry implements OperationSink {
  private tracer: Tracer | undefined;
  private readonly sessions = new WeakMap<object, SessionRecord>();

  constructor(private readonly registry: ObservedRegistry) {}

  /** The server's tracer, got from the API the first time something is traced. */
  private tracerOf(api: Otel): Tracer {
    this.tracer ??= api.trace.getTracer(SCOPE);
    return this.tracer;
  }

  /** A request arrived: its operation, or undefined when nothing is registered to record it. */
  request(
    method: string,
    id: string | number,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
    conn: ObservedConnection,
  ): Operation | undefined {
    return this.start(method, id, params, context, conn);
  }

  /** A notification arrived: end the operation once it was handled. */
  notification(
    method: string,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
    conn: ObservedConnection,
  ): Operation | undefined {
    return this.start(method, undefined, params, context, conn);
  }

  private start(
    method: string,
    id: string | number | undefined,
    params: Record<string, unknown> | undefined,
    context: MessageContext | undefined,
    conn: ObservedConnection,
  ): Operation | undefined {
    const api = otelInUse();
    if (api === undefined) return undefined;
    const metrics = instruments(api);
    const parent = parentContext(api, params, context?.headers);
    const name = boundedMethod(method, this.registry);
    const target = this.target(name, params);
    const span = this.tracerOf(api).startSpan(
      target === undefined ? name : `${name} ${target}`,
      { kind: api.SpanKind.SERVER },
      parent,
    );
    const recording = span.isRecording();
    if (!recording && !metrics.on && !api.isSpanContextValid(span.spanContext())) return undefined;
    const attributes = this.attributesOf(name, target, context, conn);
    if (recording) {
      describeSpan(api, span, attributes, id, params, conn, parent);
      if (name === OTHER) span.setAttribute(Attr.methodOriginal, method.slice(0, MAX_ORIGINAL_METHOD));
    }
    return new Operation(
      api,
      method,
      api.trace.setSpan(parent, span),
      recording ? span : undefined,
      metrics.on ? metrics : undefined,
      attributes,
      metrics.on ? performance.now() : 0,
      this,
      conn,
    );
  }

  /** The low-cardinality target of a span name: a registered tool or prompt, never what a client made up. */
  private target(method: string, params: Record<string, unknown> | undefined): string | undefined {
    const name = params?.name;
    if (typeof name !== 'string') return undefined;
    if (method === 'tools/call') return this.registry.tools.get(name) === undefined ? undefined : name;
    if (method === 'prompts/get') return this.registry.prompts.get(name) === undefined ? undefined : name;
    return undefined;
  }

  private attributesOf(
    method: string,
    target: string | undefined,
    context: MessageContext | undefined,
    conn: ObservedConnection,
  ): Attributes {
    const attributes: Attributes =
      context?.headers !== undefined
        ? { ...HTTP }
        : conn.network === undefined
          ? {}
          : { [Attr.networkTransport]: conn.network };
    attributes[Attr.method] = method;
    if (method === 'tools/call') {
      attributes[Attr.operationName] = 'execute_tool';
      if (target !== undefined) attributes[Attr.toolName] = target;
    } else if (method === 'prompts/get' && target !== undefined) attributes[Attr.promptName] = target;
    return attributes;
  }

  /** OperationSink: count refusals, and open a session when its initialize succeeded. */
  ended(op: Operation, errorType: string | undefined): void {
    if (errorType !== undefined) {
      const reason = REJECTED_BY_CODE[errorType];
      if (reason !== undefined) countRejected(reason);
      return;
    }
    const conn = op.owner;
    if (op.method !== 'initialize') return;
    const api = otelInUse();
    if (api === undefined) return;
    const metrics = instruments(api);
    if (!metrics.on || this.sessions.has(conn)) return;
    const attributes = { ...op.attributes };
    delete attributes[Attr.method];
    this.sessions.set(conn, { started: performance.now(), attributes });
    metrics.sessionsActive.add(1);
  }

  /** The connection closed: record its session's duration, if it had one. */
  sessionClosed(conn: object, protocolVersion: string | undefined): void {
    const record = this.sessions.get(conn);
    if (record === undefined) return;
    this.sessions.delete(conn);
    const api = otelInUse();
    if (api === undefined) return;
    const metrics = instruments(api);
    metrics.sessionsActive.add(-1);
    const attributes =
      protocolVersion === undefined
        ? record.attributes
        : { ...record.attributes, [Attr.protocolVersion]: protocolVersion };
    metrics.sessionDuration.record((performance.now() - record.started) / 1000, attributes);
  }

  /**
   * A request the server sends to the client (`send` sends it with the params given): a CLIENT span under the
   * request that made it, whose trace context travels in the params' `_meta`.
   */
  sent<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    origin: Operation | undefined,
    conn: ObservedConnection,
    send: (params: Record<string, unknown> | undefined) => Promise<T>,
  ): Promise<T> {
    const api = otelInUse();
    if (api === undefined) return send(params);
    const parent = origin?.ctx ?? api.context.active();
    const span = this.tracerOf(api).startSpan(method, { kind: api.SpanKind.CLIENT }, parent);
    if (!span.isRecording()) return send(params);
    span.setAttribute(Attr.method, method);
    if (conn.sessionId !== undefined) span.setAttribute(Attr.sessionId, conn.sessionId);
    const answer = send(withTraceContext(api, params, api.trace.setSpan(parent, span)));
    answer.then(
      () => span.end(),
      (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        // A number is the client's answer (any value it chose); a string is one of this library's own codes.
        const type =
          typeof code === 'number' ? boundedErrorCode(code) : typeof code === 'string' ? code : OTHER;
        span.setAttribute(Attr.errorType, type);
        if (typeof code === 'number') span.setAttribute(Attr.statusCode, type);
        span.setStatus({
          code: api.SpanStatusCode.ERROR,
          message: (error as Error | null)?.message ?? String(error),
        });
        span.end();
      },
    );
    return answer;
  }

  /**
   * A task's lifetime, from the request that started it to the end of its handler: an INTERNAL span under the
   * request's span (which ends when the task is created), `task {method}`, told the handler's outcome.
   */
  task(origin: Operation | undefined, method: string): TaskTrace | undefined {
    const api = otelInUse();
    if (api === undefined) return undefined;
    const parent = origin?.ctx ?? api.context.active();
    const span = this.tracerOf(api).startSpan(`task ${method}`, { kind: api.SpanKind.INTERNAL }, parent);
    if (!span.isRecording()) return undefined;
    span.setAttribute(Attr.method, method);
    const ctx = api.trace.setSpan(parent, span);
    let status = 'cancelled';
    let owned = false;
    let ended = false;
    return {
      run: (fn) => api.context.with(ctx, fn),
      identify: (taskId) => {
        owned = true;
        span.setAttribute(Attr.taskId, taskId);
      },
      direct: () => {
        if (owned || ended) return;
        ended = true;
        span.setAttribute(Attr.taskStatus, 'direct');
        span.end();
      },
      outcome: (message) => {
        const error = message.error as { code?: unknown; message?: unknown } | undefined;
        status = error === undefined ? 'completed' : 'failed';
        if (error !== undefined) {
          span.setAttribute(Attr.errorType, boundedErrorCode(error.code));
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(error.message) });
        } else if (
          method === 'tools/call' &&
          (message.result as { isError?: unknown } | undefined)?.isError === true
        ) {
          span.setAttribute(Attr.errorType, TOOL_ERROR);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
      },
      // The handler settles just before its answer is given: the outcome comes in the same turn.
      end: () =>
        queueMicrotask(() => {
          if (ended) return;
          ended = true;
          span.setAttribute(Attr.taskStatus, status);
          span.end();
        }),
    };
  }

  /** A request refused before it reached the core's routing (frame limits, parse errors). */
  rejected(reason: RejectReason): void {
    countRejected(reason);
  }
}

function describeSpan(
  api: Otel,
  span: Span,
  attributes: Attributes,
  id: string | number | undefined,
  params: Record<string, unknown> | undefined,
  conn: ObservedConnection,
  parent: Context,
): void {
  span.setAttributes(attributes);
  // A parent from the message itself: the transport's context (an HTTP server span, if any) is linked.
  const ambient = api.trace.getSpan(api.context.active());
  if (ambient !== undefined && ambient !== api.trace.getSpan(parent))
    span.addLink({ context: ambient.spanContext() });
  if (id !== undefined) span.setAttribute(Attr.requestId, String(id));
  if (conn.sessionId !== undefined) span.setAttribute(Attr.sessionId, conn.sessionId);
  const name = params?.name;
  if (typeof name === 'string' && attributes[Attr.method] === 'tools/call')
    span.setAttribute(Attr.toolName, name);
  if (typeof name === 'string' && attributes[Attr.method] === 'prompts/get')
    span.setAttribute(Attr.promptName, name);
  const uri = params?.uri;
  if (typeof uri === 'string') span.setAttribute(Attr.resourceUri, uri);
}
