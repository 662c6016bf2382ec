/**
 * The Streamable HTTP endpoint as a plain `(req, res)` function for node:http (or anything that
 * hands over node:http objects, such as express). It checks each request, finds or creates its
 * session, and passes the message to that session's transport.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { missingScopes } from '../auth/scopes.js';
import { BATCH_REFUSALS, checkBatch } from '../core/batch-rules.js';
import { SUPPORTED_PROTOCOL_VERSIONS as SUPPORTED_VERSIONS } from '../core/protocol.js';
import type { JsonRpcMessage, MessageContext, RequestId } from '../transport/types.js';
import { BodyConsumedError, BodyTooLargeError, readMessage } from './adapters/body.js';
import { MemoryEventStore } from './events/event-store.js';
import type { ConnectableServer, McpHttpHandler } from './handler-types.js';
import { ModernCalls, parseCallToken } from './modern/modern-calls.js';
import { nodeView, postModern } from './modern/modern-post.js';
import { count, type McpHttpHandlerOptions, resolveHandlerOptions } from './options.js';
import { sendJsonError, sendUnavailable } from './seam/reply.js';
import { ClientLimits } from './sessions/client-limits.js';
import { Drain } from './sessions/drain.js';
import { lostRequestError } from './sessions/lost.js';
import { SessionTable } from './sessions/sessions.js';
import { SharedSessions } from './sessions/shared-sessions.js';
import { SharedStateUnavailable } from './sessions/shared-state.js';
import { HttpServerTransport } from './sessions/transport.js';
import { REFUSED, refuseScope, runAuth } from './stages/auth.js';
import { type Caller, callerOf } from './stages/caller.js';
import { httpEra } from './stages/era.js';
import { frontDoor } from './stages/front-door.js';
import { accepts, checkPostHeaders, checkProtocolVersion, type Refusal } from './stages/guards.js';
import { type Kind, messageKind } from './stages/message-kind.js';
import { HeadHold } from './streams/head-hold.js';
import { KeepAlive } from './streams/keep-alive.js';

export type { ConnectableServer, HttpCloseOptions, McpHttpHandler } from './handler-types.js';

export function createMcpHttpHandler(
  server: ConnectableServer,
  options?: McpHttpHandlerOptions,
): McpHttpHandler {
  const opts = resolveHandlerOptions(options);
  const shared =
    opts.sharedSessions === undefined
      ? undefined
      : new SharedSessions({
          state: opts.sharedSessions,
          ttlMs: opts.sessionIdleTimeoutMs || 24 * 3_600_000,
          open: (sessionId, principal) => connectedHere(newTransport(sessionId), principal),
          ownerOf: (transport): string | undefined => sessions.ownerOf(transport),
          report: (error) => report(error),
          holderCheckMs: opts.keepAliveMs,
        });
  const sessions: SessionTable = new SessionTable(
    opts.sessionIdleTimeoutMs,
    shared === undefined ? undefined : (transport) => void transport.close(false),
  );
  const store =
    opts.stateless || opts.eventStore === false ? undefined : (opts.eventStore ?? new MemoryEventStore());
  const headHold = new HeadHold(opts.sseHeadHoldMs, (error) => report(error));
  const limits = new ClientLimits(opts);
  const keepAlive = new KeepAlive(opts.keepAliveMs, (error) => report(error));
  const onEnd = (transport: HttpServerTransport): void => {
    sessions.remove(transport);
    limits.ended(transport);
    shared?.detach(transport);
  };
  const report = (error: unknown): void =>
    opts.onError?.(error instanceof Error ? error : new Error(String(error)));
  const drain = new Drain();
  const nodeId = opts.sharedSessions?.router.nodeId ?? crypto.randomUUID().slice(0, 8);
  const calls = new ModernCalls(nodeId, shared?.isGone);
  const modernOptions = { jsonResponse: opts.jsonResponse, keepAlive, report, calls };

  const newTransport = (sessionId: string | undefined): HttpServerTransport =>
    new HttpServerTransport({
      sessionId,
      jsonResponse: opts.jsonResponse,
      eventStore: sessionId === undefined ? undefined : store,
      retryMs: opts.retryMs,
      maxBacklog: opts.maxStandaloneBacklog,
      headHold,
      keepAlive,
      onEnd,
      ...(shared === undefined || sessionId === undefined ? {} : shared.hooks(sessionId)),
    });
  /** A restored session: in the table and connected, or undefined when the server refused it. */
  async function connectedHere(
    fresh: HttpServerTransport,
    principal: string | undefined,
  ): Promise<HttpServerTransport | undefined> {
    sessions.add(fresh, principal);
    try {
      await server.connect(fresh);
      return fresh;
    } catch (error) {
      report(error);
      await fresh.close(false);
      return undefined;
    }
  }

  async function post(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const auth = caller.auth;
    if (!limits.admit(caller.client, res)) return;
    try {
      const headerRefusal = checkPostHeaders(req);
      if (headerRefusal !== undefined) return refuse(res, headerRefusal);
      let message: unknown;
      try {
        message = await readMessage(req, opts.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return sendJsonError(res, 413, -32000, error.message);
        if (error instanceof BodyConsumedError) return sendJsonError(res, 400, -32000, error.message);
        return sendJsonError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      }
      if (!drain.admits(message)) return drain.refuse(res);
      if (httpEra(nodeView(req), message) === 'modern') {
        if (opts.auth !== undefined && lacksScope(req, res, message, auth)) return;
        return await postModern(server, req, res, message, caller, modernOptions);
      }
      const version = checkProtocolVersion(req, SUPPORTED_VERSIONS);
      if (typeof version === 'object') return refuse(res, version);
      if (Array.isArray(message)) return postBatch(req, res, message, caller, version);
      const kind = messageKind(message);
      if (kind === undefined) {
        return sendJsonError(res, 400, -32600, 'Invalid Request: the body is not a JSON-RPC 2.0 message');
      }
      const msg = message as JsonRpcMessage;
      if (opts.auth !== undefined && lacksScope(req, res, msg, auth)) return;
      const found = sessionFor(req, res, msg, kind, caller);
      const transport = found instanceof Promise ? await found : found;
      if (transport === undefined) return;
      if (shared !== undefined && transport.sessionId !== undefined) {
        if (kind === 'request') await shared.noteRequest(transport, msg);
        else await shared.forward(transport, msg);
      }
      const context: MessageContext = {
        headers: req.headers,
        auth,
        principal: caller.principal,
        client: caller.client,
        protocolVersion: version,
      };
      if (kind === 'request') transport.acceptRequest(res, msg, msg.id as RequestId, context, version);
      else {
        transport.acceptNotification(res, msg, context);
        if (transport.sessionId === undefined && transport.inFlight === 0)
          setTimeout(() => void transport.close(), 0);
      }
    } catch (error) {
      if (error instanceof SharedStateUnavailable) unavailable(res, error);
      else fail(res, error);
    }
  }

  /** A JSON-RPC batch: only in a session that negotiated 2025-03-26, the one revision that had them. */
  async function postBatch(
    req: IncomingMessage,
    res: ServerResponse,
    messages: unknown[],
    caller: Caller,
    version: string | undefined,
  ): Promise<void> {
    const auth = caller.auth;
    const transport = opts.stateless
      ? undefined
      : await existing(res, req.headers['mcp-session-id'], caller.principal);
    if (!opts.stateless && transport === undefined) return;
    const verdict = checkBatch(transport?.protocolVersion, messages);
    if (verdict.refusal !== undefined || transport === undefined) {
      sendJsonError(res, 400, -32600, verdict.refusal ?? BATCH_REFUSALS.protocol);
      return;
    }
    if (opts.auth !== undefined && messages.some((m) => lacksScope(req, res, m, auth))) return;
    const context: MessageContext = {
      headers: req.headers,
      auth,
      principal: caller.principal,
      client: caller.client,
      protocolVersion: version,
    };
    transport.acceptBatch(res, messages as JsonRpcMessage[], verdict.requestIds, context);
  }

  /** Answers 403 (and returns true) when the caller's token lacks a scope the message needs. */
  function lacksScope(req: IncomingMessage, res: ServerResponse, message: unknown, auth: unknown): boolean {
    const missing = missingScopes(server, message, auth);
    if (missing !== undefined && opts.auth !== undefined) {
      refuseScope(req, res, opts.auth, opts.path, missing.join(' '));
    }
    return missing !== undefined;
  }

  /**
   * The transport a POST belongs to; answers the request itself (and returns undefined) on refusal.
   * Synchronous for an existing session (the common case); a new one is connected first.
   */
  function sessionFor(
    req: IncomingMessage,
    res: ServerResponse,
    msg: JsonRpcMessage,
    kind: Kind,
    caller: Caller,
  ): HttpServerTransport | undefined | Promise<HttpServerTransport | undefined> {
    if (opts.stateless) return connected(res, newTransport(undefined));
    const sessionId = req.headers['mcp-session-id'];
    if (kind === 'request' && msg.method === 'initialize') {
      if (sessionId !== undefined) {
        sendJsonError(res, 400, -32600, 'Bad Request: initialize must not carry an Mcp-Session-Id header');
        return undefined;
      }
      if (sessions.size >= opts.maxSessions) {
        sendJsonError(res, 503, -32000, 'Service Unavailable: too many sessions', { 'retry-after': '5' });
        return undefined;
      }
      if (!limits.mayOpenSession(caller.client, res)) return undefined;
      const transport = newTransport(crypto.randomUUID());
      sessions.add(transport, caller.principal);
      limits.opened(caller.client, transport);
      if (shared !== undefined) shared.attach(transport);
      return connected(res, transport);
    }
    return existing(res, sessionId, caller.principal);
  }

  /**
   * The session a request names, when its caller may use it. A session bound to another principal
   * is answered exactly as an unknown one (404), so that its existence is not disclosed.
   */
  function existing(
    res: ServerResponse,
    sessionId: string | string[] | undefined,
    principal: string | undefined,
  ): HttpServerTransport | undefined | Promise<HttpServerTransport | undefined> {
    if (typeof sessionId !== 'string') {
      sendJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const transport = sessions.owned(sessionId, principal);
    if (transport !== undefined) return transport;
    if (shared !== undefined && sessions.get(sessionId) === undefined)
      return restored(res, sessionId, principal);
    sendJsonError(res, 404, -32001, 'Session not found');
    return undefined;
  }

  /** A session another process opened, taken from the shared registry (for its own principal only). */
  async function restored(
    res: ServerResponse,
    sessionId: string,
    principal: string | undefined,
  ): Promise<HttpServerTransport | undefined> {
    try {
      const transport = await shared?.restore(sessionId, principal);
      if (transport !== undefined && sessions.ownerOf(transport) === principal) return transport;
      sendJsonError(res, 404, -32001, 'Session not found');
      return undefined;
    } catch (error) {
      if (error instanceof SharedStateUnavailable) unavailable(res, error);
      else fail(res, error);
      return undefined;
    }
  }

  async function connected(
    res: ServerResponse,
    transport: HttpServerTransport,
  ): Promise<HttpServerTransport | undefined> {
    try {
      await server.connect(transport, STATELESS_CONNECT[transport.sessionId === undefined ? 1 : 0]);
      return transport;
    } catch (error) {
      report(error);
      await transport.close();
      sendJsonError(res, 500, -32603, 'Internal error: the session could not be started');
      return undefined;
    }
  }

  async function get(
    req: IncomingMessage,
    res: ServerResponse,
    principal: string | undefined,
  ): Promise<void> {
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return sendJsonError(res, 406, -32000, 'Not Acceptable: the Accept header must list text/event-stream');
    }
    const lastEventId = req.headers['last-event-id'];
    const sessionId = req.headers['mcp-session-id'];
    if (sessionId === undefined && parseCallToken(lastEventId as string | undefined) !== undefined) {
      if (drain.draining && !calls.isHere(lastEventId as string)) return drain.refuse(res);
      return calls.resume(req, res, principal);
    }
    const version = checkProtocolVersion(req, SUPPORTED_VERSIONS);
    if (typeof version === 'object') return refuse(res, version);
    if (drain.draining) {
      // Only a resumption of a call running here finishes work: any other stream is taken elsewhere.
      const here = typeof sessionId === 'string' ? sessions.owned(sessionId, principal) : undefined;
      const stream =
        typeof lastEventId === 'string' ? lastEventId.slice(0, lastEventId.lastIndexOf('.')) : '';
      if (here?.carriesCall(stream) !== true) return drain.refuse(res);
    }
    const transport = await existing(res, sessionId, principal);
    if (transport !== undefined) await transport.openStream(req, res);
  }

  async function remove(
    req: IncomingMessage,
    res: ServerResponse,
    principal: string | undefined,
  ): Promise<void> {
    const version = checkProtocolVersion(req, SUPPORTED_VERSIONS);
    if (typeof version === 'object') return refuse(res, version);
    const transport = await existing(res, req.headers['mcp-session-id'], principal);
    if (transport === undefined) return;
    try {
      await shared?.end(transport);
    } catch (error) {
      if (!(error instanceof SharedStateUnavailable)) throw error;
      return unavailable(res, error);
    }
    await transport.close();
    res.writeHead(200, { 'content-length': '0' }).end();
  }

  /** Answer 503 with Retry-After when shared state could not be used (reported too, with its reason). */
  function unavailable(res: ServerResponse, error: SharedStateUnavailable): void {
    report(error);
    sendUnavailable(res, error.message);
  }

  /** Answer 500 for anything unexpected (reported through onError, never shown to the client). */
  function fail(res: ServerResponse, error: unknown): void {
    report(error);
    sendJsonError(res, 500, -32603, 'Internal error');
  }

  async function authenticated(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    try {
      const auth = opts.auth === undefined ? undefined : await runAuth(req, res, opts.auth, opts.path);
      if (auth === REFUSED) return;
      const caller = callerOf(req, auth, opts.auth !== undefined, limits);
      if (method === 'POST') return await post(req, res, caller); // catches its own errors
      if (!limits.admit(caller.client, res)) return;
      if (method === 'GET') return await get(req, res, caller.principal);
      return await remove(req, res, caller.principal);
    } catch (error) {
      fail(res, error);
    }
  }

  // Synchronous up to the body read: an unauthenticated POST goes straight to `post`.
  const handler = ((req: IncomingMessage, res: ServerResponse): void => {
    const method = frontDoor(req, res, opts);
    if (method === undefined) return;
    if (method === 'POST' && opts.auth === undefined)
      void post(req, res, callerOf(req, undefined, false, limits));
    else void authenticated(req, res, method);
  }) as McpHttpHandler;

  Object.defineProperty(handler, 'sessionCount', { get: () => sessions.size });
  Object.defineProperty(handler, 'draining', { get: () => drain.draining });
  handler.session = (sessionId: string) => sessions.get(sessionId);
  const lost = (id: RequestId): JsonRpcMessage => JSON.parse(lostRequestError(id, nodeId, 'stopped'));
  handler.close = (options = {}) =>
    drain.run(count(options.graceMs, 0, 'graceMs'), {
      busy: () => sessions.all().reduce((n, t) => n + t.inFlight, calls.busy + (server.runningTasks ?? 0)),
      endTasks: () => server.endTasks?.() ?? Promise.resolve(0),
      answerLeft: async () => {
        await Promise.all(sessions.all().map((transport) => transport.answerPending(lost)));
        await calls.answerLeft();
      },
      closeAll: () => {
        headHold.release();
        keepAlive.release();
        return sessions.closeAll(false);
      },
    });
  return handler;
}

const STATELESS_CONNECT = [{}, { allowUninitialized: true, ephemeral: true }] as const;

function refuse(res: ServerResponse, refusal: Refusal): void {
  sendJsonError(res, refusal.status, refusal.code, refusal.message);
}
