/**
 * The few host globals the protocol core may use, declared by hand so that the core compiles with
 * `"types": []` and no Node global (process, Buffer, require) can leak into it. Used only by
 * `src/core/tsconfig.json`; the package build sees the same names from the platform's own types.
 */

interface AbortSignal {
  readonly aborted: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: mirrors the platform declaration
  readonly reason: any;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

declare var AbortSignal: {
  prototype: AbortSignal;
};

interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare var AbortController: {
  prototype: AbortController;
  new (): AbortController;
};

declare function setTimeout(handler: () => void, timeout?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;

/** Web Crypto's random UUID (Node 20+, browsers, workers): task ids and connection keys. */
declare var crypto: { randomUUID(): string };
/** The web platform's monotonic clock (durations measured by the telemetry). */
declare var performance: { now(): number };
