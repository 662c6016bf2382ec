/**
 * The public types of the extension API: custom request and notification methods, the extensions a
 * server declares under `capabilities.extensions`, and hooks around the handling of every request.
 */

import type { WireError } from './errors.js';
import type { Awaitable, Era, HandlerContext } from './handler-types.js';
import type { ClientContext } from './protocol.js';
import type { ToolArgs, ToolSchema } from './schema-types.js';

/** A request method the server did not know, added with `server.addMethod`. */
export interface MethodDefinition<Params extends ToolSchema | undefined = ToolSchema | undefined> {
  /** The JSON-RPC method, e.g. `acme/search`; one the server already serves is refused. */
  method: string;
  /**
   * The request's params without `_meta`, as JSON Schema or a Standard Schema, checked like a tool's
   * arguments (-32602 naming the JSON pointer). The handler gets the checked value. Default: any object.
   */
  params?: Params;
  /** The eras the method is served in. Default: both. */
  eras?: readonly Era[];
  /**
   * Served only to a client that declared this extension (in this request's `_meta` client
   * capabilities, or at initialize); others get -32021 naming it. The server must declare it too.
   */
  extension?: string;
  /**
   * Run like a tool handler: take a concurrency slot and end with -32001 after `handlerTimeoutMs`.
   * Default true; false for quick lookups that must never wait behind running tools.
   */
  scheduled?: boolean;
  /**
   * Protocol 2026-07-28 over HTTP: the string field of params that clients mirror in the `Mcp-Name`
   * header (checked against the body like a tool's name; -32020 on a mismatch).
   */
  nameParam?: string;
}

/** Serves one custom request: the checked params and the same context tool handlers get. */
export type MethodHandler<Params extends ToolSchema | undefined = undefined> = (
  params: ToolArgs<Params>,
  ctx: HandlerContext,
) => Awaitable<Record<string, unknown>>;

/** A notification from the client the server did not know, added with `server.addNotification`. */
export interface NotificationDefinition<Params extends ToolSchema | undefined = ToolSchema | undefined> {
  method: string;
  /** The params without `_meta`; a notification that does not match is dropped (and reported). */
  params?: Params;
  /** The eras it is accepted in. Default: both. */
  eras?: readonly Era[];
}

/** What a notification handler knows of the message and its sender. */
export interface NotificationContext {
  readonly method: string;
  readonly era: Era;
  /** The client as it presented itself (undefined before initialize on a 2025 connection). */
  readonly client: ClientContext | undefined;
  readonly sessionId: string | undefined;
  readonly auth: unknown;
  header(name: string): string | undefined;
  /** The settings the client declared for extension `id`, or undefined. */
  clientExtension(id: string): Record<string, unknown> | undefined;
}

export type NotificationHandler<Params extends ToolSchema | undefined = undefined> = (
  params: ToolArgs<Params>,
  ctx: NotificationContext,
) => void;

/** A request as hooks see it: the handler context plus what was asked. */
export interface RequestContext extends HandlerContext {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

/** How a request ended, as `after` hooks are told. */
export type RequestOutcome =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'error'; readonly error: WireError }
  /** The client cancelled it, or the connection closed: nothing was sent. */
  | { readonly kind: 'abandoned'; readonly reason: unknown };

/** Code that runs around every request (tracing, authorisation, audit). */
export interface RequestHook {
  /**
   * Before the method runs (after the request was routed and admitted). Throw, or return a promise
   * that rejects, to refuse the request: an McpError is sent as it is, anything else as -32603.
   */
  before?(request: RequestContext): void | PromiseLike<void>;
  /** Once the request ended. Runs after the answer was handed to the transport; what it throws is ignored. */
  after?(request: RequestContext, outcome: RequestOutcome): void;
}
