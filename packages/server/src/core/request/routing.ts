/**
 * Which method serves a request, and in which protocol context, in both eras: a 2026-07-28 request is routed
 * by its envelope (and pins its connection to that era unless it is a probe), a 2025 one by the method table
 * and the context fixed at initialize. The answer is the request ready to start, or the error refusing it.
 */

import { requireDeclared } from '../declared.js';
import { ErrorCode, toWireError, type WireError } from '../errors.js';
import type { RequestId } from '../handler-types.js';
import type { Batch, ConnectionCore, ServerHost } from '../host.js';
import { type ClientContext, PRE_INIT, uninitializedClient } from '../protocol.js';
import type { MessageContext } from '../transport.js';
import { ModernRequest } from './modern.js';
import { isModernRequest, pinsModern, routeModern } from './modern-route.js';
import { RequestState } from './request.js';

/** What routing reads (and, for the era, sets) of the connection a request came in on. */
export interface RoutingConnection extends ConnectionCore {
  readonly server: ServerHost;
  /** Set by the first modern request (other than a bare `server/discover`): the connection is 2026-07-28. */
  modern: boolean;
  /** Requests are served without a prior initialize (stateless HTTP). */
  readonly allowUninitialized: boolean;
}

export interface Routed {
  readonly req: RequestState;
  /** Runs an application handler: takes a concurrency slot. */
  readonly scheduled: boolean;
}

export function routeRequest(
  conn: RoutingConnection,
  id: RequestId,
  method: string,
  params: Record<string, unknown> | undefined,
  context: MessageContext | undefined,
  batch: Batch | undefined,
): Routed | WireError {
  if (conn.modern || (conn.client === undefined && isModernRequest(method, params))) {
    if (pinsModern(method, params)) conn.modern = true;
    try {
      const route = routeModern(conn.server, method, params);
      const req = new ModernRequest(conn, id, method, params, context, route.client, route.spec.run, batch);
      return { req, scheduled: route.spec.scheduled };
    } catch (error) {
      return toWireError(error, method);
    }
  }
  const spec = conn.server.methods.get(method);
  if (spec === undefined) return { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` };
  const client = clientFor(conn, method, context);
  if (client === undefined) {
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid Request: ${method} received before initialize`,
    };
  }
  try {
    requireDeclared(conn.server, method, spec.needs);
  } catch (error) {
    return toWireError(error, method);
  }
  const req = new RequestState(conn, id, method, params, context, client, spec.run, batch);
  return { req, scheduled: spec.scheduled };
}

/**
 * The protocol context of a 2025 request: the one fixed at initialize. Before it, `initialize` and `ping` get
 * a provisional one, and so does every request of a connection that serves without initialize.
 */
function clientFor(
  conn: RoutingConnection,
  method: string,
  context: MessageContext | undefined,
): ClientContext | undefined {
  if (conn.client !== undefined) return conn.client;
  if (method === 'initialize' || method === 'ping') return PRE_INIT;
  return conn.allowUninitialized ? uninitializedClient(context?.protocolVersion) : undefined;
}
