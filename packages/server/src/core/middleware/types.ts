/**
 * The public types of request middleware: the context a middleware sees, the `next` it may call, and
 * what `server.use` matches on. Params and results are typed for the methods listed in `MiddlewareMethods`.
 */

import type { Awaitable, HandlerContext } from '../handler-types.js';
import type { GetPromptResult, Meta, ReadResourceResult, ToolResult } from '../types.js';

/** The params and results of the methods whose middleware is typed; other methods get plain objects. */
export interface MiddlewareMethods {
  'tools/call': {
    params: { name: string; arguments?: Record<string, unknown>; task?: { ttl?: number }; _meta?: Meta };
    result: ToolResult;
  };
  'tools/list': {
    params: { cursor?: string; _meta?: Meta } | undefined;
    result: { tools: Record<string, unknown>[]; nextCursor?: string; _meta?: Meta };
  };
  'prompts/get': {
    params: { name: string; arguments?: Record<string, string>; _meta?: Meta };
    result: GetPromptResult;
  };
  'prompts/list': {
    params: { cursor?: string; _meta?: Meta } | undefined;
    result: { prompts: Record<string, unknown>[]; nextCursor?: string; _meta?: Meta };
  };
  'resources/read': { params: { uri: string; _meta?: Meta }; result: ReadResourceResult };
}

/** The params of `M` as middleware sees them. */
export type MiddlewareParams<M extends string> = M extends keyof MiddlewareMethods
  ? MiddlewareMethods[M]['params']
  : Record<string, unknown> | undefined;

/** The result of `M` as middleware sees it (before the 2026-07-28 envelope fields are added). */
export type MiddlewareResult<M extends string> = M extends keyof MiddlewareMethods
  ? MiddlewareMethods[M]['result']
  : Record<string, unknown>;

/**
 * What a middleware sees of a request: the handler context (signal, era, session, caller, request id,
 * progress and log) plus what was asked, which it may rewrite before calling `next`.
 */
export interface MiddlewareContext<M extends string = string> extends HandlerContext {
  /** The JSON-RPC method. */
  readonly method: M;
  /**
   * The params; assign (or change in place) before `next()` and the method sees the new ones. Keep
   * `_meta`: progress tokens and the 2026-07-28 envelope travel in it.
   */
  params: MiddlewareParams<M>;
  /** The tool a `tools/call` names (read from `params.name` now); undefined for other methods. */
  readonly tool: M extends 'tools/call' ? string : string | undefined;
  /** A place for middleware to leave values for the layers inside it (one object per request). */
  readonly state: Record<string, unknown>;
  /**
   * 2026-07-28: true once the method asked the client for input it has not given yet. The round then ends
   * with `input_required` whatever the chain returns, and the client sends the call again (`round` + 1).
   */
  readonly awaitingInput: boolean;
}

/** Runs the rest of the chain (the next middleware, or the method); call it at most once. */
export type Next<M extends string = string> = () => Promise<MiddlewareResult<M>>;

/**
 * Code around a request, as in Koa and Hono: do something, `await next()`, do something with the
 * result, return a result. Return without calling `next` to answer by yourself; throw to fail the
 * request (an McpError is sent as it is, anything else as -32603 naming the method and the message).
 */
export type Middleware<M extends string = string> = (
  ctx: MiddlewareContext<M>,
  next: Next<M>,
) => Awaitable<MiddlewareResult<M>>;

/** Which tools a middleware runs for: a name, several names, or a test of the name. */
export type ToolMatch =
  | string
  | readonly string[]
  | ((name: string, ctx: MiddlewareContext<'tools/call'>) => boolean);

/** Which requests a middleware runs for; an empty match runs it for all of them. */
export interface MiddlewareMatch<M extends string = string> {
  /** A method or several. */
  method?: M | readonly M[];
  /** `tools/call` of these tools only (implies `method: 'tools/call'`). */
  tool?: ToolMatch;
}
