/**
 * The loader's telemetry, through `@opentelemetry/api` only: a span per plugin call (a CLIENT span for the
 * isolated host's round trip, INTERNAL in-process) under whatever span is active when the call is made (the
 * server's `tools/call` span), its duration in `mcp.plugin.call.duration`, and counters of plugin host crashes
 * and restarts. With nothing registered with the API a call costs one global lookup, and the API is not loaded.
 */
import type {
  Attributes,
  Counter,
  Histogram,
  MeterProvider,
  Span,
  SpanContext,
  Tracer,
} from '@opentelemetry/api';
import type { StopCode } from './guard.js';
import { type Otel, otelInUse } from './otel-api.js';
import type { CallReply, Isolation } from './types.js';

const SCOPE = '@entropic-mcp/loader';
/** Plugin calls take microseconds to seconds: finer buckets than the MCP operation histogram's. */
const CALL_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

export const PluginAttr = {
  name: 'entropic.plugin.name',
  tool: 'entropic.plugin.tool',
  isolation: 'entropic.plugin.isolation',
  errorType: 'error.type',
} as const;

interface Instruments {
  readonly on: boolean;
  readonly callDuration: Histogram;
  readonly hostCrashes: Counter;
  readonly hostRestarts: Counter;
}

let provider: MeterProvider | undefined;
let current: Instruments | undefined;

function instruments(api: Otel): Instruments {
  const now = api.metrics.getMeterProvider();
  if (now === provider && current !== undefined) return current;
  provider = now;
  const meter = now.getMeter(SCOPE);
  current = {
    on: meter !== api.createNoopMeter(),
    callDuration: meter.createHistogram('mcp.plugin.call.duration', {
      description: 'Plugin calls, from the call to its answer (or failure), in either hosting mode',
      unit: 's',
      advice: { explicitBucketBoundaries: CALL_BUCKETS },
    }),
    hostCrashes: meter.createCounter('mcp.plugin.host.crashes', {
      description: 'Plugin host processes that died without being asked to (a signal, or a non-zero exit)',
      unit: '{crash}',
    }),
    hostRestarts: meter.createCounter('mcp.plugin.host.restarts', {
      description: 'Plugin host processes started again after the previous one ended',
      unit: '{restart}',
    }),
  };
  return current;
}

let tracer: Tracer | undefined;

/** What happened to a plugin, for whoever writes logs (`serve`); `span` is the call's, when one was traced. */
export type PluginEvent =
  | {
      readonly kind: 'call-failed';
      readonly plugin: string;
      readonly tool: string;
      readonly code: string;
      readonly message: string;
      readonly span: SpanContext | undefined;
    }
  | { readonly kind: 'host-crashed'; readonly plugin: string; readonly how: string }
  | { readonly kind: 'host-restarted'; readonly plugin: string };

let listener: ((event: PluginEvent) => void) | undefined;

/** Tell `fn` about plugin failures, host crashes and restarts (one listener: serve's log); returns a remover. */
export function onPluginEvent(fn: (event: PluginEvent) => void): () => void {
  listener = fn;
  return () => {
    if (listener === fn) listener = undefined;
  };
}

/** What a call's telemetry names: the plugin (its name, once loaded), how it is hosted, and its tools. */
export interface CallSubject {
  readonly name: string;
  readonly isolation: Isolation;
  /** A tool named by a call counts under its own name only when the plugin lists it. */
  readonly tools: readonly { readonly name: string }[];
}

/** The OpenTelemetry conventions' value for a name the instrumentation does not know. */
const OTHER = '_OTHER';

/**
 * `reply`, or a reply that first ends the call's span and records its duration: the one place both hosting
 * modes pass through. Returns `reply` itself when nothing records.
 */
export function observeCall<T>(subject: CallSubject, tool: string, reply: CallReply<T>): CallReply<T> {
  const api = otelInUse();
  if (api === undefined) {
    // Nothing registered with the API: no span, no metric, no active span to name. Only a failure is told.
    return listener === undefined ? reply : new ToldReply(subject, tool, reply, listener);
  }
  const metrics = instruments(api);
  const isolated = subject.isolation === 'process';
  // A name the plugin does not list would add a series (and a span name) per name a caller makes up.
  const label = subject.tools.some((t) => t.name === tool) ? tool : OTHER;
  tracer ??= api.trace.getTracer(SCOPE);
  const span = tracer.startSpan(`plugin.execute ${subject.name}.${label}`, {
    kind: isolated ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
  });
  const recording = span.isRecording();
  const told = listener;
  if (!recording && !metrics.on && told === undefined) return reply;
  // The span a log line about this call names: the call's own, else the request's the call was made in.
  const site = recording ? span.spanContext() : api.trace.getSpanContext(api.context.active());
  const attributes: Attributes = {
    [PluginAttr.name]: subject.name,
    [PluginAttr.tool]: label,
    [PluginAttr.isolation]: subject.isolation,
  };
  if (recording) span.setAttributes(attributes);
  const started = performance.now();
  const done = (error: Error | undefined): void => {
    const type = error === undefined ? undefined : errorType(error);
    if (recording) finishSpan(api, span, type, error);
    if (told !== undefined && error !== undefined && type !== 'cancelled') {
      told(failedEvent(subject, tool, error, site));
    }
    if (metrics.on) {
      const seconds = (performance.now() - started) / 1000;
      metrics.callDuration.record(
        seconds,
        type === undefined ? attributes : { ...attributes, [PluginAttr.errorType]: type },
      );
    }
  };
  return {
    answered: (value) => {
      done(undefined);
      reply.answered(value);
    },
    failed: (error) => {
      done(error);
      reply.failed(error);
    },
  };
}

/** A call its caller cancelled: counted as the server counts a cancelled request, and told as no failure. */
const CANCELLED: StopCode = 'ENTROPIC_ERROR_CANCELLED';

/** The kind of error a failure is counted and logged as: `cancelled`, else its string `code`, else its name. */
function errorType(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (code === CANCELLED) return 'cancelled';
  return typeof code === 'string' ? code : error.name;
}

function failedEvent(subject: CallSubject, tool: string, error: Error, span: SpanContext | undefined) {
  const code = errorType(error);
  return { kind: 'call-failed', plugin: subject.name, tool, code, message: error.message, span } as const;
}

/** A reply that tells the listener of a failure before passing it on (one object a call, no closures). */
class ToldReply<T> implements CallReply<T> {
  constructor(
    private readonly subject: CallSubject,
    private readonly tool: string,
    private readonly reply: CallReply<T>,
    private readonly told: (event: PluginEvent) => void,
  ) {}

  answered(value: T): void {
    this.reply.answered(value);
  }

  failed(error: Error): void {
    if (errorType(error) !== 'cancelled') this.told(failedEvent(this.subject, this.tool, error, undefined));
    this.reply.failed(error);
  }
}

function finishSpan(api: Otel, span: Span, type: string | undefined, error: Error | undefined): void {
  if (type !== undefined) {
    span.setAttribute(PluginAttr.errorType, type);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error?.message ?? type });
  }
  span.end();
}

/** A plugin host process ended: a crash unless this side killed it or it exited cleanly. */
export function countHostExit(
  plugin: string | undefined,
  exit: { readonly killed: boolean; readonly signal: string | null; readonly exitCode: number | null },
): void {
  if (exit.killed || (exit.signal === null && exit.exitCode === 0)) return;
  const api = otelInUse();
  if (api !== undefined) instruments(api).hostCrashes.add(1, { [PluginAttr.name]: plugin ?? '' });
  const how = exit.signal === null ? `exited with status ${exit.exitCode}` : `was killed by ${exit.signal}`;
  listener?.({ kind: 'host-crashed', plugin: plugin ?? '', how });
}

/** A plugin host process is started again after its predecessor ended. */
export function countHostRestart(plugin: string | undefined): void {
  const api = otelInUse();
  if (api !== undefined) instruments(api).hostRestarts.add(1, { [PluginAttr.name]: plugin ?? '' });
  listener?.({ kind: 'host-restarted', plugin: plugin ?? '' });
}
