/**
 * The scale-out mode's telemetry, through `@opentelemetry/api` only: a CLIENT span per Redis command (named
 * for the command, in the OpenTelemetry database conventions, arguments never recorded) under whatever span is
 * active when the command is sent, and `mcp.redis.command.failures` counting the commands that failed. One
 * place: the client's `sendCommand`, which every command and pipeline passes through. With no SDK registered
 * a command costs one global lookup. And `mcp.redis.clock.skew`, this process's clock minus Redis's (clock.ts).
 */
import {
  type Counter,
  createNoopMeter,
  type MeterProvider,
  metrics,
  type ObservableResult,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Redis } from 'ioredis';

const SCOPE = '@entropic-mcp/redis';
const tracer = trace.getTracer(SCOPE);
/** Made by the API's first registration (an SDK): without it every API call is a no-op, and is skipped. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let provider: MeterProvider | undefined;
let failures: { on: boolean; counter: Counter } | undefined;

function failureCounter(): { on: boolean; counter: Counter } {
  const now = metrics.getMeterProvider();
  if (now !== provider || failures === undefined) {
    provider = now;
    const meter = now.getMeter(SCOPE);
    failures = {
      on: meter !== createNoopMeter(),
      counter: meter.createCounter('mcp.redis.command.failures', {
        description: 'Redis commands that failed (an error reply, a closed connection, a deadline)',
        unit: '{command}',
      }),
    };
  }
  return failures;
}

interface SentCommand {
  readonly name: string;
  readonly promise: Promise<unknown>;
}

type SendCommand = (command: SentCommand, ...rest: unknown[]) => unknown;

/** Where the client is connected, as the database conventions name it. */
function serverOf(client: Redis): Record<string, string | number> {
  const { host, port, db } = client.options;
  return {
    'db.system.name': 'redis',
    'db.system': 'redis',
    ...(host === undefined ? {} : { 'server.address': host }),
    ...(port === undefined ? {} : { 'server.port': port }),
    'db.namespace': String(db ?? 0),
  };
}

function errorType(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : '_OTHER';
}

function end(span: Span | undefined, error: unknown): void {
  if (span === undefined) return;
  if (error !== undefined) {
    span.setAttribute('error.type', errorType(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: (error as Error | null)?.message ?? String(error),
    });
  }
  span.end();
}

/** Trace and count every command `client` sends from now on. */
export function observeRedis(client: Redis): void {
  const send = (client.sendCommand as unknown as SendCommand).bind(client);
  const server = serverOf(client);
  const observed: SendCommand = (command, ...rest) => {
    if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return send(command, ...rest);
    const counted = failureCounter();
    const operation = command.name.toUpperCase();
    const span = tracer.startSpan(operation, { kind: SpanKind.CLIENT });
    const recording = span.isRecording();
    if (recording) span.setAttributes({ ...server, 'db.operation.name': operation });
    const result = send(command, ...rest);
    if (recording || counted.on) {
      command.promise.then(
        () => end(recording ? span : undefined, undefined),
        (error: unknown) => {
          end(recording ? span : undefined, error);
          counted.counter.add(1, { 'db.operation.name': operation, 'error.type': errorType(error) });
        },
      );
    }
    return result;
  };
  (client as unknown as { sendCommand: SendCommand }).sendCommand = observed;
}

/** The skews of the running clocks (one per shared state; a process normally has one). */
const skews = new Set<() => number>();
let skewProvider: MeterProvider | undefined;

function observeSkews(result: ObservableResult): void {
  for (const read of skews) result.observe(read());
}

/** Export `read()` (seconds) as `mcp.redis.clock.skew` until the returned function is called. */
export function watchClockSkew(read: () => number): () => void {
  const now = metrics.getMeterProvider();
  if (now !== skewProvider) {
    skewProvider = now;
    now
      .getMeter(SCOPE)
      .createObservableGauge('mcp.redis.clock.skew', {
        description: "This process's wall clock minus the Redis server's (negative: this process is behind)",
        unit: 's',
      })
      .addCallback(observeSkews);
  }
  skews.add(read);
  return () => skews.delete(read);
}
