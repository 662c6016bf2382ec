/**
 * One request or notification as the telemetry sees it: its server span (when a tracer records) and what the
 * duration metric needs, from receipt until the answer left. Made only when a tracer or a meter is registered;
 * otherwise the core holds `undefined` and pays nothing more.
 */

import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { Otel } from './api.js';
import { boundedErrorCode } from './bounded.js';
import type { Instruments } from './instruments.js';
import { Attr, TOOL_ERROR } from './names.js';

/** Where an operation's end is reported beyond its span and metrics (the session bookkeeping). */
export interface OperationSink {
  /** `errorType` is the operation's `error.type`, undefined when it succeeded. */
  ended(op: Operation, errorType: string | undefined): void;
}

export class Operation {
  private done = false;

  constructor(
    /** The API the operation was made with (one is registered, or there would be no operation). */
    private readonly api: Otel,
    readonly method: string,
    /** The context a handler runs in: the server span's, or the extracted parent when nothing records. */
    readonly ctx: Context,
    private readonly span: Span | undefined,
    private readonly metrics: Instruments | undefined,
    /** The metric attributes known at receipt (method, target, transport). */
    readonly attributes: Attributes,
    private readonly started: number,
    private readonly sink: OperationSink | undefined,
    /** The connection the message came in on. */
    readonly owner: object,
  ) {
    metrics?.requestsActive.add(1);
  }

  /** Run `fn(arg)` with this operation's context active, so child spans (plugin calls, Redis) hang under it. */
  run<A, R>(fn: (arg: A) => R, arg: A): R {
    return this.api.context.with(this.ctx, fn, undefined, arg);
  }

  /** The answer left (or, for a notification, it was handled): `message` is the response, if any. */
  end(message: Record<string, unknown> | undefined, protocolVersion: string | undefined): void {
    const error = message?.error as { code?: unknown; message?: unknown } | undefined;
    let errorType: string | undefined;
    let statusCode: string | undefined;
    if (error !== undefined) {
      statusCode = boundedErrorCode(error.code);
      errorType = statusCode;
    } else if (this.method === 'tools/call' && isToolError(message?.result)) {
      errorType = TOOL_ERROR;
    }
    const extra: Attributes = {};
    if (protocolVersion !== undefined) extra[Attr.protocolVersion] = protocolVersion;
    if (errorType !== undefined) extra[Attr.errorType] = errorType;
    if (statusCode !== undefined) extra[Attr.statusCode] = statusCode;
    this.finish(extra, errorType, typeof error?.message === 'string' ? error.message : undefined);
  }

  /** The request ended without an answer (cancelled by the client, or its connection closed). */
  abandon(why: 'cancelled' | 'connection_closed', protocolVersion: string | undefined): void {
    const extra: Attributes = { [Attr.errorType]: why };
    if (protocolVersion !== undefined) extra[Attr.protocolVersion] = protocolVersion;
    this.finish(extra, why, why === 'cancelled' ? 'cancelled by the client' : 'the connection closed');
  }

  private finish(extra: Attributes, errorType: string | undefined, description: string | undefined): void {
    // Once: a request handed to a task was answered (with the task) before its handler ends.
    if (this.done) return;
    this.done = true;
    const span = this.span;
    if (span !== undefined) {
      span.setAttributes(extra);
      if (errorType !== undefined) {
        span.setStatus(
          description === undefined
            ? { code: this.api.SpanStatusCode.ERROR }
            : { code: this.api.SpanStatusCode.ERROR, message: description },
        );
      }
      span.end();
    }
    const metrics = this.metrics;
    if (metrics !== undefined) {
      metrics.requestsActive.add(-1);
      const seconds = (performance.now() - this.started) / 1000;
      metrics.operationDuration.record(seconds, { ...this.attributes, ...extra });
    }
    this.sink?.ended(this, errorType);
  }
}

function isToolError(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
}
