/**
 * What legacy (2025) sessions need to cross processes, as two small interfaces the HTTP handler
 * owns: a session registry (what a process that never saw the session needs to serve it) and a
 * message router (messages for a session that another process must act on). The in-memory versions
 * here connect handlers inside one process (tests, embedding); `@entropic-mcp/redis` implements both
 * on Redis for processes and machines.
 */

import { McpServerError } from '../../core/errors.js';
import type { JsonRpcMessage } from '../../core/transport.js';

/** What a session was given at initialize, and what it changed since. */
export interface SessionRecord {
  /** The negotiated protocol version. */
  readonly protocolVersion: string;
  /** The initialize request's params (`protocolVersion`, `capabilities`, `clientInfo`). */
  readonly initialize: Record<string, unknown>;
  /** The level of the last `logging/setLevel`, if any. */
  readonly logLevel?: string;
  /**
   * The principal key of the caller that opened the session; only that principal may use it on any
   * process. Absent for a session opened without authentication.
   */
  readonly principal?: string;
}

export interface SessionRegistry {
  /** Store (or replace) a session's record; it expires after `ttlMs` without `touch`. */
  save(sessionId: string, record: SessionRecord, ttlMs: number): void | Promise<void>;
  /** The record, or undefined when the session never existed, ended or expired. */
  load(sessionId: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /** Record a new log level. */
  setLogLevel(sessionId: string, level: string): void | Promise<void>;
  /** The session is in use: push its expiry back. */
  touch(sessionId: string, ttlMs: number): void | Promise<void>;
  /** The session ended (DELETE): no process may restore it any more. */
  remove(sessionId: string): void | Promise<void>;
  /**
   * Record that the GET stream `streamId` (`<session>.<node>-g<n>`) got the session's live GET
   * connection at `at` (ms since epoch); an older claim never replaces a newer one. Optional, with
   * `holder`: a process that missed the takeover message finds out from it.
   */
  setHolder?(sessionId: string, streamId: string, at: number): void | Promise<void>;
  /** The GET stream last recorded by `setHolder`, if any. */
  holder?(sessionId: string): string | undefined | Promise<string | undefined>;
}

/**
 * One message between processes about one session:
 * - `in`: a message from the client (a response to a server→client request, a notification) that
 *   the processes holding this session deliver to their copy of it;
 * - `out`: a connection-wide message for the client that the process holding the GET stream writes;
 * - `held`: the sender has the session's live GET connection now; any other process stops writing
 *   to its own (its client left it). When the sender resumed another process's GET stream (`stream`)
 *   through event `after`, that process passes on, as `out`, what it raised and stored after it;
 * - `end`: the session was deleted; every process drops its copy.
 */
export interface RoutedMessage {
  readonly kind: 'in' | 'out' | 'held' | 'end';
  /** The process that published it (it ignores its own). */
  readonly from: string;
  readonly message?: JsonRpcMessage;
  /** `held`: the GET stream resumed, and the last event replayed from it. */
  readonly stream?: string;
  readonly after?: string;
}

export interface MessageRouter {
  /** This process's tag, unique among the processes sharing sessions: letters, digits, `_`, `-`. */
  readonly nodeId: string;
  /** Receive the messages published for `sessionId`; returns the call that stops receiving. */
  subscribe(sessionId: string, listener: (message: RoutedMessage) => void): () => void;
  /** Publish to every process subscribed to `sessionId` (including this one). */
  publish(sessionId: string, message: RoutedMessage): void | Promise<void>;
  /**
   * Whether the process `nodeId` stopped for good (its calls that never got an answer are lost).
   * Optional: without it, no process is ever taken for gone.
   */
  isGone?(nodeId: string): Promise<boolean>;
}

/**
 * Shared state could not be used: the request that needed it fails with this message (HTTP 503 with
 * Retry-After). Either it could not be reached (it stalls, the connection is down), or it answered
 * and refused to keep a write (a store's error with `refused: true`, such as Redis out of memory or a
 * read-only replica); the message names which, and the store's own reason.
 */
export class SharedStateUnavailable extends McpServerError<'SHARED_STATE_UNAVAILABLE'> {
  override readonly name = 'SharedStateUnavailable';

  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const refused = (cause as { refused?: unknown } | null)?.refused === true;
    const what = refused ? 'cannot be written' : 'is unreachable';
    const message = `Service Unavailable: shared session state ${what} (${reason})`;
    super('SHARED_STATE_UNAVAILABLE', message, { cause });
  }
}

/** Both halves, as the handler takes them. */
export interface SharedSessionState {
  readonly registry: SessionRegistry;
  readonly router: MessageRouter;
  /**
   * The time every process sharing this state agrees on (ms since epoch; `@entropic-mcp/redis`:
   * Redis's), for the times one process records for others (when a GET stream was claimed).
   * Default: this process's clock.
   */
  readonly now?: () => number;
}

/** A registry in this process's memory (handlers of one process sharing sessions). */
export class MemorySessionRegistry implements SessionRegistry {
  readonly #records = new Map<string, { record: SessionRecord; expires: number }>();
  readonly #holders = new Map<string, { streamId: string; at: number }>();

  save(sessionId: string, record: SessionRecord, ttlMs: number): void {
    this.#records.set(sessionId, { record, expires: Date.now() + ttlMs });
  }

  load(sessionId: string): SessionRecord | undefined {
    const entry = this.#records.get(sessionId);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now()) return entry.record;
    this.remove(sessionId);
    return undefined;
  }

  setLogLevel(sessionId: string, level: string): void {
    const entry = this.#records.get(sessionId);
    if (entry !== undefined) entry.record = { ...entry.record, logLevel: level };
  }

  touch(sessionId: string, ttlMs: number): void {
    const entry = this.#records.get(sessionId);
    if (entry !== undefined) entry.expires = Date.now() + ttlMs;
  }

  remove(sessionId: string): void {
    this.#records.delete(sessionId);
    this.#holders.delete(sessionId);
  }

  setHolder(sessionId: string, streamId: string, at: number): void {
    const current = this.#holders.get(sessionId);
    if (this.#records.has(sessionId) && (current === undefined || current.at <= at))
      this.#holders.set(sessionId, { streamId, at });
  }

  holder(sessionId: string): string | undefined {
    return this.#holders.get(sessionId)?.streamId;
  }
}

/** The in-process bus: one hub, and one router per handler (`hub.router('a')`). */
export class MemoryMessageHub {
  readonly #listeners = new Map<string, Set<(message: RoutedMessage) => void>>();

  router(nodeId: string): MessageRouter {
    const listeners = this.#listeners;
    return {
      nodeId,
      subscribe(sessionId, listener) {
        const set = listeners.get(sessionId) ?? new Set();
        listeners.set(sessionId, set);
        set.add(listener);
        return () => {
          set.delete(listener);
          if (set.size === 0) listeners.delete(sessionId);
        };
      },
      publish(sessionId, message) {
        // Delivered on a later tick, as a network bus would.
        const set = listeners.get(sessionId);
        if (set !== undefined) for (const listener of [...set]) setImmediate(() => listener(message));
      },
    };
  }
}
