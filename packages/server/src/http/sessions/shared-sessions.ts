/**
 * Legacy sessions served by several processes: this process's side of the session registry and the
 * message router. It saves a session before its initialize is served (a session the registry did not
 * take is refused, never acknowledged), restores a session it has never seen from the registry,
 * passes the client's answers and notifications to the process that needs them, hands
 * connection-wide messages to the process holding the GET stream, and ends every copy of a session
 * on DELETE. The process that last got a GET connection of a session holds its
 * GET stream: it says so (a `held` message, and the registry's record), and a process that held it
 * before stops writing into a connection its client has left.
 */

import { negotiateVersion } from '../../core/protocol.js';
import type { JsonRpcMessage } from '../../core/transport.js';
import {
  type RoutedMessage,
  type SessionRecord,
  type SharedSessionState,
  SharedStateUnavailable,
} from '../state/shared-state.js';
import { routeResponse } from '../streams/node-tags.js';
import type { HttpServerTransport } from './transport.js';

/** The id of the synthetic requests that replay a restored session's state into the core. */
const RESTORE_ID = '\u0000restore';

export interface SharedSessionsConfig {
  readonly state: SharedSessionState;
  /** How long the registry keeps a session nobody uses (the handler's idle timeout). */
  readonly ttlMs: number;
  /** A new transport for `sessionId`, bound to `principal`, connected and in the handler's table. */
  readonly open: (
    sessionId: string,
    principal: string | undefined,
  ) => Promise<HttpServerTransport | undefined>;
  /** The principal a session of this process is bound to (saved with its record). */
  readonly ownerOf: (transport: HttpServerTransport) => string | undefined;
  readonly report: (error: unknown) => void;
  /** How often a process holding GET streams checks the registry still names them (0: never). */
  readonly holderCheckMs: number;
}

export class SharedSessions {
  readonly #config: SharedSessionsConfig;
  readonly #unsubscribe = new Map<HttpServerTransport, () => void>();
  readonly #restoring = new Map<string, Promise<HttpServerTransport | undefined>>();
  readonly #touched = new WeakMap<HttpServerTransport, number>();
  /** The time processes agree on (the shared state's clock, else this process's). */
  readonly #now: () => number;
  /** When each transport's GET connection arrived (its claim in the registry). */
  readonly #heldAt = new WeakMap<HttpServerTransport, number>();
  #holderCheck: ReturnType<typeof setInterval> | undefined;

  constructor(config: SharedSessionsConfig) {
    this.#config = config;
    this.#now = config.state.now ?? Date.now;
  }

  /** What a transport of `sessionId` is given to serve the session with other processes. */
  hooks(sessionId: string) {
    return {
      nodeId: this.nodeId,
      isGone: this.isGone,
      elsewhere: (message: JsonRpcMessage) => this.elsewhere(sessionId, message),
      onHold: this.onHold,
      // Saved before the core judged the initialize; refused, the record would only wait for its TTL.
      onRefusedStart: () => this.#background(() => this.#config.state.registry.remove(sessionId)),
    };
  }

  /** The session's GET connection is here now: record it, and tell the others to let theirs go. */
  readonly onHold = (transport: HttpServerTransport, resumed?: { stream: string; through: string }): void => {
    const sessionId = transport.sessionId;
    const stream = transport.standaloneId;
    if (sessionId === undefined || stream === undefined) return;
    const taken = resumed === undefined ? {} : { stream: resumed.stream, after: resumed.through };
    const at = this.#now();
    this.#heldAt.set(transport, at);
    this.#background(async () => {
      await this.#config.state.registry.setHolder?.(sessionId, stream, at);
      await this.#config.state.router.publish(sessionId, { kind: 'held', from: this.nodeId, ...taken });
    });
    if (this.#holderCheck === undefined && this.#config.holderCheckMs > 0) {
      this.#holderCheck = setInterval(() => this.#checkHolders(), this.#config.holderCheckMs);
      this.#holderCheck.unref();
    }
  };

  get nodeId(): string {
    return this.#config.state.router.nodeId;
  }

  /** Whether another process stopped for good (false when the router cannot tell). */
  readonly isGone = async (nodeId: string): Promise<boolean> =>
    (await this.#config.state.router.isGone?.(nodeId)) ?? false;

  /** A connection-wide message with no GET stream here: the process holding it writes it. */
  readonly elsewhere = (sessionId: string, message: JsonRpcMessage): boolean => {
    this.#background(() =>
      this.#config.state.router.publish(sessionId, { kind: 'out', from: this.nodeId, message }),
    );
    return true;
  };

  /** A session now has a copy here: receive what other processes publish for it. */
  attach(transport: HttpServerTransport): void {
    const sessionId = transport.sessionId;
    if (sessionId === undefined || this.#unsubscribe.has(transport)) return;
    const stop = this.#config.state.router.subscribe(sessionId, (routed) => this.#receive(transport, routed));
    this.#unsubscribe.set(transport, stop);
  }

  /** This copy closed (ended, idle, or the process is stopping). */
  detach(transport: HttpServerTransport): void {
    this.#unsubscribe.get(transport)?.();
    this.#unsubscribe.delete(transport);
  }

  /**
   * A request of the session arrived here: keep what the registry needs and push its expiry back.
   * Only an initialize waits for shared state: the session is saved before it is served, and when
   * the registry cannot be reached or refuses the write, the new session closes here and this rejects
   * with SharedStateUnavailable (the client gets 503, not a session that no other process could
   * find). A session this process holds keeps working while shared state is unavailable, and its log
   * level and expiry reach the registry when it takes them again.
   */
  async noteRequest(transport: HttpServerTransport, message: JsonRpcMessage): Promise<void> {
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return;
    const registry = this.#config.state.registry;
    if (message.method === 'initialize') {
      const initialize = (message.params ?? {}) as Record<string, unknown>;
      // Without a version the core refuses the initialize: there is no session to save.
      if (typeof initialize.protocolVersion !== 'string') return;
      const principal = this.#config.ownerOf(transport);
      const record: SessionRecord = {
        protocolVersion: negotiateVersion(initialize.protocolVersion),
        initialize,
        ...(principal === undefined ? {} : { principal }),
      };
      try {
        await registry.save(sessionId, record, this.#config.ttlMs);
      } catch (error) {
        await transport.close(false);
        throw new SharedStateUnavailable(error);
      }
      return;
    }
    if (message.method === 'logging/setLevel') {
      const level = (message.params as { level?: unknown } | undefined)?.level;
      if (typeof level === 'string') {
        this.#background(async () => {
          await registry.setLogLevel(sessionId, level);
          await this.#config.state.router.publish(sessionId, { kind: 'in', from: this.nodeId, message });
        });
      }
      return;
    }
    const now = Date.now();
    if (now - (this.#touched.get(transport) ?? 0) > this.#config.ttlMs / 10) {
      this.#touched.set(transport, now);
      this.#background(() => registry.touch(sessionId, this.#config.ttlMs));
    }
  }

  /**
   * A response or notification from the client arrived here: send it to the processes that need
   * it. Afterwards the caller delivers it locally too (the core ignores what is not its own). A
   * response another process waits for must get there (SharedStateUnavailable otherwise, so the
   * client learns it did not); a notification is sent without waiting.
   */
  async forward(transport: HttpServerTransport, message: JsonRpcMessage): Promise<void> {
    if (message.method === undefined && routeResponse(message, this.nodeId) !== 'remote') return;
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return;
    const publish = () =>
      this.#config.state.router.publish(sessionId, { kind: 'in', from: this.nodeId, message });
    if (message.method !== undefined) {
      this.#background(publish);
      return;
    }
    try {
      await publish();
    } catch (error) {
      throw new SharedStateUnavailable(error);
    }
  }

  /**
   * A session this process does not hold: restore it from the registry for `principal` (undefined:
   * no such session, or one bound to another principal, of which no copy is made here).
   */
  restore(sessionId: string, principal: string | undefined): Promise<HttpServerTransport | undefined> {
    const key = `${principal ?? ''}\n${sessionId}`;
    let pending = this.#restoring.get(key);
    if (pending === undefined) {
      pending = this.#restore(sessionId, principal).finally(() => this.#restoring.delete(key));
      this.#restoring.set(key, pending);
    }
    return pending;
  }

  /** DELETE: no process may serve the session any more; every copy closes. */
  async end(transport: HttpServerTransport): Promise<void> {
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return;
    try {
      await this.#config.state.registry.remove(sessionId);
      await this.#config.state.router.publish(sessionId, { kind: 'end', from: this.nodeId });
    } catch (error) {
      throw new SharedStateUnavailable(error);
    }
  }

  async #restore(sessionId: string, principal: string | undefined): Promise<HttpServerTransport | undefined> {
    let record: SessionRecord | undefined;
    try {
      record = await this.#config.state.registry.load(sessionId);
    } catch (error) {
      throw new SharedStateUnavailable(error);
    }
    if (record === undefined || record.principal !== principal) return undefined;
    const transport = await this.#config.open(sessionId, principal);
    if (transport === undefined) return undefined;
    transport.protocolVersion = record.protocolVersion;
    const replay = (method: string, params?: Record<string, unknown>, id?: string): void =>
      transport.onmessage?.(
        { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params },
        { replay: true },
      );
    replay('initialize', record.initialize, RESTORE_ID);
    replay('notifications/initialized');
    if (record.logLevel !== undefined) replay('logging/setLevel', { level: record.logLevel }, RESTORE_ID);
    this.attach(transport);
    return transport;
  }

  /** Shared-state work no request waits for: failures are reported, never thrown. */
  #background(work: () => void | Promise<void>): void {
    Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.#config.report(new SharedStateUnavailable(error)));
  }

  /**
   * Another process took the session's GET stream: let the connection here go, and pass on what was
   * raised here after the event it resumed from (it went into a connection the client had left).
   */
  #release(transport: HttpServerTransport, routed: RoutedMessage): void {
    const sessionId = transport.sessionId as string;
    this.#background(async () => {
      for (const message of await transport.releaseStandalone(routed.stream, routed.after))
        await this.#config.state.router.publish(sessionId, { kind: 'out', from: this.nodeId, message });
    });
  }

  /**
   * A `held` message may be missed (pub/sub is at most once): the registry's record is checked too,
   * for connections older than one check (a younger one's claim may not be recorded yet).
   */
  #checkHolders(): void {
    const settled = this.#now() - this.#config.holderCheckMs;
    const holding = [...this.#unsubscribe.keys()].filter(
      (t) => t.standaloneConnected && (this.#heldAt.get(t) ?? 0) < settled,
    );
    if (holding.length === 0 || this.#config.state.registry.holder === undefined) {
      clearInterval(this.#holderCheck);
      this.#holderCheck = undefined;
      return;
    }
    for (const transport of holding) {
      this.#background(async () => {
        const holder = await this.#config.state.registry.holder?.(transport.sessionId as string);
        if (holder !== undefined && holder !== transport.standaloneId) await transport.releaseStandalone();
      });
    }
  }

  #receive(transport: HttpServerTransport, routed: RoutedMessage): void {
    if (routed.from === this.nodeId || transport.closed) return;
    const message = routed.message;
    if (routed.kind === 'end') void transport.close(false);
    else if (routed.kind === 'held') this.#release(transport, routed);
    else if (message === undefined) return;
    else if (routed.kind === 'out') transport.sendForwarded(message);
    else if (message.method !== undefined) {
      transport.onmessage?.(message.id === undefined ? message : { ...message, id: RESTORE_ID }, {});
    } else if (routeResponse(message, this.nodeId) === 'local') transport.onmessage?.(message, {});
  }
}
