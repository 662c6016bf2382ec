/**
 * The last POST stages of the 2025 era: route the message to its session (a new one for `initialize`,
 * a fresh transport per request when stateless), tell shared state what it must know, and hand the
 * message to the session's transport, which answers it.
 */

import { BATCH_REFUSALS, checkBatch } from '../../core/batch-rules.js';
import type { JsonRpcMessage, MessageContext, RequestId } from '../../core/transport.js';
import { refuse } from '../seam/refusal.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import type { Found, SessionHost } from '../sessions/host.js';
import type { Caller } from './caller.js';
import type { Kind } from './message-kind.js';

/** The transport one message goes to. Synchronous for a session held here (the common case). */
export function routeSession(
  host: SessionHost,
  req: HttpRequest,
  message: JsonRpcMessage,
  kind: Kind,
  caller: Caller,
): Found {
  if (host.opts.stateless) return host.connect(host.newTransport(undefined));
  const sessionId = req.header('mcp-session-id');
  if (kind === 'request' && message.method === 'initialize') {
    if (sessionId !== undefined) {
      const text = 'Bad Request: initialize must not carry an Mcp-Session-Id header';
      refuse({ status: 400, code: -32600, message: text });
    }
    return host.open(caller.client, caller.principal);
  }
  return host.existing(sessionId, caller.principal);
}

/** Hand one message to its session's transport; a request's settles once the core admitted it (or refused it). */
export async function dispatch(
  host: SessionHost,
  req: HttpRequest,
  res: ResponseSink,
  message: JsonRpcMessage,
  kind: Kind,
  caller: Caller,
  version: string | undefined,
): Promise<void> {
  const found = routeSession(host, req, message, kind, caller);
  const transport = found instanceof Promise ? await found : found;
  const shared = host.shared;
  if (shared !== undefined && transport.sessionId !== undefined) {
    if (kind === 'request') await shared.noteRequest(transport, message);
    else await shared.forward(transport, message);
  }
  const context = contextOf(req, caller, version);
  if (kind === 'request')
    return transport.acceptRequest(res, message, message.id as RequestId, context, version);
  transport.acceptNotification(res, message, context);
  if (transport.sessionId === undefined && transport.inFlight === 0)
    setTimeout(() => void transport.close(), 0);
}

/** A JSON-RPC batch: only in a session that negotiated 2025-03-26, the one revision that had them. */
export async function dispatchBatch(
  host: SessionHost,
  req: HttpRequest,
  res: ResponseSink,
  messages: unknown[],
  caller: Caller,
  version: string | undefined,
): Promise<void> {
  const transport = host.opts.stateless
    ? undefined
    : await host.existing(req.header('mcp-session-id'), caller.principal);
  const verdict = checkBatch(transport?.protocolVersion, messages);
  if (verdict.refusal !== undefined || transport === undefined) {
    return refuse({ status: 400, code: -32600, message: verdict.refusal ?? BATCH_REFUSALS.protocol });
  }
  const context = contextOf(req, caller, version);
  transport.acceptBatch(res, messages as JsonRpcMessage[], verdict.requestIds, context);
}

function contextOf(req: HttpRequest, caller: Caller, version: string | undefined): MessageContext {
  return {
    headers: req.headers,
    auth: caller.auth,
    principal: caller.principal,
    client: caller.client,
    protocolVersion: version,
  };
}
