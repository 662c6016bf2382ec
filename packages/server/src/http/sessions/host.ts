/**
 * What one HTTP endpoint holds: its legacy sessions (here and, with shared state, across processes),
 * its 2026-07-28 calls, the per-client limits, the timers its streams share, and the drain. The stages
 * find, open and restore sessions through it; `close` ends it all.
 */

import type { JsonRpcMessage, RequestId, Transport } from '../../core/transport.js';
import { ModernCalls } from '../modern/modern-calls.js';
import type { ModernPostOptions, ModernServer } from '../modern/modern-post.js';
import { count, type ResolvedHandlerOptions } from '../options.js';
import { refuse, SESSION_NOT_FOUND } from '../seam/refusal.js';
import { MemoryEventStore } from '../state/event-store.js';
import { HeadHold } from '../streams/head-hold.js';
import { KeepAlive } from '../streams/keep-alive.js';
import { lostRequestError } from '../streams/lost.js';
import { ClientLimits } from './client-limits.js';
import { Drain } from './drain.js';
import { SessionTable } from './sessions.js';
import { SharedSessions } from './shared-sessions.js';
import { HttpServerTransport } from './transport.js';

/** What the handler needs of a server: one call that binds a transport to it as a new session. */
export interface ConnectableServer {
  connect(
    transport: Transport,
    options?: { allowUninitialized?: boolean; ephemeral?: boolean },
  ): Promise<unknown>;
  /**
   * The tools: in 2026-07-28 the `x-mcp-header` parameters of the one a call names are checked, when
   * its caller may see it (a hidden tool is as unknown here as in the core).
   */
  readonly tools?: ModernServer['tools'];
  /** Tasks this process runs (a drain waits for them). */
  readonly runningTasks?: number;
  /** Fail every task this process runs, saying the server shut down (the drain grace is over). */
  endTasks?(): Promise<number>;
}

/** A transport, or the promise of one when it had to be connected or restored first. */
export type Found = HttpServerTransport | Promise<HttpServerTransport>;

const CONNECT = [{}, { allowUninitialized: true, ephemeral: true }] as const;

export class SessionHost {
  readonly server: ConnectableServer;
  readonly opts: ResolvedHandlerOptions;
  readonly report: (error: unknown) => void;
  readonly sessions: SessionTable;
  readonly shared: SharedSessions | undefined;
  readonly limits: ClientLimits;
  readonly drain = new Drain();
  readonly calls: ModernCalls;
  /** What a 2026-07-28 POST is served with. */
  readonly modern: ModernPostOptions;
  readonly keepAlive: KeepAlive;
  readonly #headHold: HeadHold;
  readonly #store;
  #nodeId: string | undefined;

  constructor(server: ConnectableServer, opts: ResolvedHandlerOptions) {
    this.server = server;
    this.opts = opts;
    this.report = (error) => opts.onError?.(error instanceof Error ? error : new Error(String(error)));
    this.shared =
      opts.sharedSessions === undefined
        ? undefined
        : new SharedSessions({
            state: opts.sharedSessions,
            ttlMs: opts.sessionIdleTimeoutMs || 24 * 3_600_000,
            open: (sessionId, principal) => this.#connectedHere(this.newTransport(sessionId), principal),
            ownerOf: (transport): string | undefined => this.sessions.ownerOf(transport),
            report: this.report,
            holderCheckMs: opts.keepAliveMs,
          });
    this.sessions = new SessionTable(
      opts.sessionIdleTimeoutMs,
      this.shared === undefined ? undefined : (transport) => void transport.close(false),
    );
    this.#store =
      opts.stateless || opts.eventStore === false ? undefined : (opts.eventStore ?? new MemoryEventStore());
    this.#headHold = new HeadHold(opts.sseHeadHoldMs, this.report);
    this.limits = new ClientLimits(opts);
    this.keepAlive = new KeepAlive(opts.keepAliveMs, this.report);
    this.#nodeId = opts.sharedSessions?.router.nodeId;
    this.calls = new ModernCalls(() => this.nodeId, this.shared?.isGone);
    this.modern = {
      jsonResponse: opts.jsonResponse,
      keepAlive: this.keepAlive,
      report: this.report,
      calls: this.calls,
    };
  }

  /**
   * This process's name in call tokens: the shared state's, else a random one made on first use, since a
   * Worker may make no random value while its module loads (where a handler is usually created).
   */
  get nodeId(): string {
    this.#nodeId ??= crypto.randomUUID().slice(0, 8);
    return this.#nodeId;
  }

  /** A transport for a new session (`sessionId`), or for one stateless request (undefined). */
  newTransport(sessionId: string | undefined): HttpServerTransport {
    const shared = this.shared;
    return new HttpServerTransport({
      sessionId,
      jsonResponse: this.opts.jsonResponse,
      eventStore: sessionId === undefined ? undefined : this.#store,
      retryMs: this.opts.retryMs,
      maxBacklog: this.opts.maxStandaloneBacklog,
      headHold: this.#headHold,
      keepAlive: this.keepAlive,
      onEnd: (transport) => {
        this.sessions.remove(transport);
        this.limits.ended(transport);
        shared?.detach(transport);
      },
      ...(shared === undefined || sessionId === undefined ? {} : shared.hooks(sessionId)),
    });
  }

  /** A new session for `initialize`: counted against the node's and the client's limits, then connected. */
  open(client: string | undefined, principal: string | undefined): Promise<HttpServerTransport> {
    if (this.sessions.size >= this.opts.maxSessions) {
      refuse({
        status: 503,
        code: -32000,
        message: 'Service Unavailable: too many sessions',
        headers: { 'retry-after': '5' },
      });
    }
    this.limits.checkSessionRoom(client);
    const transport = this.newTransport(crypto.randomUUID());
    this.sessions.add(transport, principal);
    this.limits.opened(client, transport);
    this.shared?.attach(transport);
    return this.connect(transport);
  }

  /** Bind `transport` to the server; refuses with 500 (the cause reported) when the server will not. */
  async connect(transport: HttpServerTransport): Promise<HttpServerTransport> {
    try {
      await this.server.connect(transport, CONNECT[transport.sessionId === undefined ? 1 : 0]);
      return transport;
    } catch (error) {
      await transport.close();
      const message = 'Internal error: the session could not be started';
      return refuse({ status: 500, code: -32603, message }, error);
    }
  }

  /**
   * The session a request names, when its caller may use it. A session bound to another principal
   * is answered exactly as an unknown one (404), so that its existence is not disclosed. Synchronous
   * for a session held here (the common case); one another process opened is restored first.
   */
  existing(sessionId: string | undefined, principal: string | undefined): Found {
    if (sessionId === undefined) {
      refuse({ status: 400, code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' });
    }
    const transport = this.sessions.owned(sessionId, principal);
    if (transport !== undefined) return transport;
    if (this.shared !== undefined && this.sessions.get(sessionId) === undefined)
      return this.#restored(sessionId, principal);
    return refuse(SESSION_NOT_FOUND);
  }

  /** Work in flight here: calls in sessions, 2026-07-28 calls and tasks. */
  busy(): number {
    const inSessions = this.sessions.all().reduce((n, t) => n + t.inFlight, this.calls.busy);
    return inSessions + (this.server.runningTasks ?? 0);
  }

  /** Drain for `graceMs`, then answer what is left with an error and close everything here. */
  close(graceMs: number | undefined): Promise<void> {
    const lost = (id: RequestId): JsonRpcMessage => JSON.parse(lostRequestError(id, this.nodeId, 'stopped'));
    return this.drain.run(count(graceMs, 0, 'graceMs'), {
      busy: () => this.busy(),
      endTasks: () => this.server.endTasks?.() ?? Promise.resolve(0),
      answerLeft: async () => {
        await Promise.all(this.sessions.all().map((transport) => transport.answerPending(lost)));
        await this.calls.answerLeft();
      },
      closeAll: () => {
        this.#headHold.release();
        this.keepAlive.release();
        return this.sessions.closeAll(false);
      },
    });
  }

  /** A session another process opened, taken from the shared registry (for its own principal only). */
  async #restored(sessionId: string, principal: string | undefined): Promise<HttpServerTransport> {
    const transport = await this.shared?.restore(sessionId, principal);
    if (transport !== undefined && this.sessions.ownerOf(transport) === principal) return transport;
    return refuse(SESSION_NOT_FOUND);
  }

  /** A restored session: in the table and connected, or undefined when the server refused it. */
  async #connectedHere(
    fresh: HttpServerTransport,
    principal: string | undefined,
  ): Promise<HttpServerTransport | undefined> {
    this.sessions.add(fresh, principal);
    try {
      await this.server.connect(fresh);
      return fresh;
    } catch (error) {
      this.report(error);
      await fresh.close(false);
      return undefined;
    }
  }
}
