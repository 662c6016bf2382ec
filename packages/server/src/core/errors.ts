/**
 * Every error this package throws on purpose is a `McpServerError`, whose `code` names it and stays the
 * same across releases. Two kinds, told apart by the type of `code`:
 * - `McpError` is a wire error: a JSON-RPC error code, a message and optional data, serialised with `toJSON()`.
 * - `LocalError` is a misuse of this library (a duplicate tool, a missing capability); its `code` is a string
 *   and it is never sent to a peer as such.
 * `ToolError` is neither: thrown from a tool handler it becomes a tool result with `isError: true`.
 */

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The server is at its in-flight cap, or the connection closed before a reply. */
  ServerBusy: -32000,
  RequestTimeout: -32001,
  ResourceNotFound: -32002,
  UrlElicitationRequired: -32042,
  /** 2026-07-28: an HTTP header contradicts the body (or a required one is missing). */
  HeaderMismatch: -32020,
  /** 2026-07-28: serving the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request names a protocol version this server does not speak. */
  UnsupportedProtocolVersion: -32022,
  /** Over a rate limit: `data.retryAfterMs` says how long to wait (over HTTP, a 429 with Retry-After). */
  RateLimited: -32029,
} as const;

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The base of every error this package throws on purpose. `code` says which error it is and is stable:
 * match on it, never on the message. A string for local errors (`'SHARED_STATE_UNAVAILABLE'`,
 * `'DUPLICATE_TOOL'`…), the JSON-RPC error code for a wire error (`McpError`).
 */
export class McpServerError<C extends string | number = string | number> extends Error {
  override readonly name: string = 'McpServerError';
  readonly code: C;

  constructor(code: C, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export class McpError extends McpServerError<number> {
  override readonly name = 'McpError';
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(code, message);
    this.data = data;
  }

  toJSON(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export type LocalErrorCode =
  | 'DUPLICATE_TOOL'
  | 'DUPLICATE_RESOURCE'
  | 'DUPLICATE_RESOURCE_TEMPLATE'
  | 'DUPLICATE_PROMPT'
  | 'DUPLICATE_EXTENSION'
  | 'DUPLICATE_METHOD'
  | 'INVALID_ARGUMENT'
  | 'INVALID_SCHEMA'
  | 'CAPABILITY_NOT_DECLARED'
  | 'CLIENT_CAPABILITY_MISSING'
  | 'NOT_CONNECTED'
  | 'CLOSED';

export class LocalError extends McpServerError<LocalErrorCode> {
  override readonly name = 'LocalError';
}

/** Throws `CAPABILITY_NOT_DECLARED` with `message` unless `declared`: an API used without the capability it needs. */
export function requireCapability(declared: boolean | undefined, message: string): void {
  if (!declared) throw new LocalError('CAPABILITY_NOT_DECLARED', message);
}

/** Thrown from a tool handler: the call ran and failed; the client sees `isError: true` and the message. */
export class ToolError extends McpServerError<'TOOL_ERROR'> {
  override readonly name = 'ToolError';

  constructor(message?: string, options?: { readonly cause?: unknown }) {
    super('TOOL_ERROR', message ?? '', options);
  }
}

/** The wire form of anything a handler threw while serving `method`. */
export function toWireError(error: unknown, method: string): WireError {
  if (error instanceof McpError) return error.toJSON();
  const detail = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.InternalError, message: `Internal error in ${method}: ${detail}` };
}

/** Seconds a client is told to wait (Retry-After) after a request refused because shared state was unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * -32000 for a request refused because the state it creates could not be stored where every process
 * sees it (the shared store refused the write, or did not answer): nothing was acknowledged, and the
 * same request may be sent again later. `data.retryAfter` says when, in seconds (over HTTP it is also
 * the status 503's `Retry-After`).
 */
export function unavailable(what: string, cause: unknown): McpError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new McpError(ErrorCode.ServerBusy, `Service Unavailable: ${what} (${reason}); try again later`, {
    retryAfter: UNAVAILABLE_RETRY_AFTER_S,
  });
}

/** The seconds to wait when `message` is an error answer made by `unavailable`, else undefined. */
export function retryAfterOf(message: { error?: unknown }): number | undefined {
  const error = message.error as { code?: unknown; data?: { retryAfter?: unknown } } | undefined;
  if (error?.code !== ErrorCode.ServerBusy) return undefined;
  const after = error.data?.retryAfter;
  return typeof after === 'number' && Number.isInteger(after) && after > 0 ? after : undefined;
}
