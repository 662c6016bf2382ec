/**
 * A POST in the 2026-07-28 era: classify the body, check the headers against it,
 * then serve it as one exchange with its own connection to the server (nothing is kept after).
 */

import { classify, Kind } from '../../core/envelope.js';
import type { JsonRpcMessage, MessageContext } from '../../core/transport.js';
import type { Caller } from '../../core/types.js';
import { callerOf } from '../../core/visibility/rule.js';
import { refuse } from '../seam/refusal.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import type { KeepAlive } from '../streams/keep-alive.js';
import type { ModernCalls } from './modern-calls.js';
import { ModernExchange } from './modern-exchange.js';
import { checkModernHeaders, type HeaderParam, headerParams } from './modern-headers.js';

/**
 * What the modern path needs of a server: connect, its tools (for `x-mcp-header`), and its
 * extensions (the `Mcp-Name` field of custom methods, the custom notifications it handles).
 */
export interface ModernServer {
  connect(transport: ModernExchange, options?: { ephemeral?: boolean }): Promise<unknown>;
  /** The tool a call names, when its caller may see it (a hidden tool is unknown here, as it is in the core). */
  readonly tools?: {
    find(name: string, caller: Caller): { readonly wire?: Record<string, unknown> } | undefined;
  };
  readonly extensions?: {
    nameParam(method: string): string | undefined;
    readonly notifications: { has(method: string): boolean };
  };
}

export interface ModernPostOptions {
  readonly jsonResponse: boolean;
  readonly keepAlive: KeepAlive;
  readonly report: (error: unknown) => void;
  /** The handler's 2026-07-28 calls: their tokens and outcomes, and the drain. */
  readonly calls?: ModernCalls;
}

const paramsCache = new WeakMap<object, HeaderParam[]>();
/** A modern POST is one exchange: nothing made on its connection outlives it. */
const EPHEMERAL = { ephemeral: true } as const;

export async function postModern(
  server: ModernServer,
  req: HttpRequest,
  res: ResponseSink,
  message: unknown,
  caller: { readonly auth: unknown; readonly principal: string | undefined; readonly client?: string },
  options: ModernPostOptions,
): Promise<void> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    const text = 'Invalid Request: protocol 2026-07-28 takes one JSON-RPC message per POST, not a batch';
    refuse({ status: 400, code: -32600, message: text });
  }
  const m = message as JsonRpcMessage;
  const kind = classify(m);
  if (kind === Kind.Notification) {
    if (server.extensions?.notifications.has(m.method as string) === true) {
      return deliverNotification(
        server,
        res,
        m,
        { headers: req.headers, auth: caller.auth, principal: caller.principal, client: caller.client },
        options,
      );
    }
    res.writeHead(202, { 'content-length': '0' }).end();
    return;
  }
  if (kind !== Kind.Request) {
    const text = 'Invalid Request: the body is not a JSON-RPC 2.0 request or notification';
    refuse({ status: 400, code: -32600, message: text });
  }
  const refusal = checkModernHeaders(
    req,
    m as { method: string; params?: Record<string, unknown> },
    (name) => {
      const wire = server.tools?.find(name, callerOf(caller))?.wire;
      if (wire === undefined) return undefined;
      let params = paramsCache.get(wire);
      if (params === undefined) {
        params = headerParams(wire.inputSchema);
        paramsCache.set(wire, params);
      }
      return params;
    },
    (method) => server.extensions?.nameParam(method),
  );
  if (refusal !== undefined) refuse({ ...refusal, id: m.id });
  const exchange = new ModernExchange(res, options);
  try {
    await server.connect(exchange, EPHEMERAL);
  } catch (error) {
    refuse({ status: 500, code: -32603, message: 'Internal error: the request could not be served' }, error);
  }
  const context: MessageContext = {
    headers: req.headers,
    auth: caller.auth,
    principal: caller.principal,
    client: caller.client,
    protocolVersion: req.header('mcp-protocol-version')?.trim(),
  };
  return exchange.deliver(m, context);
}

/** A notification a custom handler takes: handed to the core on a connection of its own, then 202. */
async function deliverNotification(
  server: ModernServer,
  res: ResponseSink,
  message: JsonRpcMessage,
  context: MessageContext,
  options: ModernPostOptions,
): Promise<void> {
  const exchange = new ModernExchange(res, options);
  try {
    await server.connect(exchange, EPHEMERAL);
    exchange.onmessage?.(message, context);
  } catch (error) {
    options.report(error);
  }
  res.writeHead(202, { 'content-length': '0' }).end();
  await exchange.close();
}
