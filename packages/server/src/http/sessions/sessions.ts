/** The sessions of one handler, each bound to the principal that opened it, with idle expiry. */

import type { HttpServerTransport } from './transport.js';

export class SessionTable {
  readonly #byId = new Map<string, HttpServerTransport>();
  /** The principal each session is bound to (undefined: opened without authentication). */
  readonly #owners = new WeakMap<HttpServerTransport, string | undefined>();
  readonly #idleMs: number;
  #sweep: NodeJS.Timeout | undefined;

  /** `expire` closes an idle session (by default for good; a shared one only here). */
  constructor(
    idleMs: number,
    private readonly expire: (transport: HttpServerTransport) => void = (t) => void t.close(),
  ) {
    this.#idleMs = idleMs;
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): HttpServerTransport | undefined {
    return this.#byId.get(id);
  }

  /** The session of `id` when `principal` may use it: the one that opened it, and nobody else. */
  owned(id: string, principal: string | undefined): HttpServerTransport | undefined {
    const transport = this.#byId.get(id);
    return transport !== undefined && this.#owners.get(transport) === principal ? transport : undefined;
  }

  /** The principal `transport` is bound to. */
  ownerOf(transport: HttpServerTransport): string | undefined {
    return this.#owners.get(transport);
  }

  add(transport: HttpServerTransport, principal: string | undefined): void {
    if (transport.sessionId === undefined) return;
    this.#owners.set(transport, principal);
    this.#byId.set(transport.sessionId, transport);
    if (this.#sweep === undefined && this.#idleMs > 0) {
      this.#sweep = setInterval(() => this.#expire(), Math.max(50, Math.min(this.#idleMs / 2, 60_000)));
      this.#sweep.unref();
    }
  }

  remove(transport: HttpServerTransport): void {
    if (transport.sessionId !== undefined && this.#byId.get(transport.sessionId) === transport) {
      this.#byId.delete(transport.sessionId);
    }
    if (this.#byId.size === 0 && this.#sweep !== undefined) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }

  /** Every transport of the table, for a shutdown. */
  all(): HttpServerTransport[] {
    return [...this.#byId.values()];
  }

  /** Close every session here; a shutdown keeps their event logs (`forgetEvents: false`). */
  async closeAll(forgetEvents = true): Promise<void> {
    const all = [...this.#byId.values()];
    await Promise.allSettled(all.map((transport) => transport.close(forgetEvents)));
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  /** Close sessions with no request for the idle time and no connection open. */
  #expire(): void {
    const cutoff = Date.now() - this.#idleMs;
    for (const transport of this.#byId.values()) {
      if (transport.lastSeen < cutoff && transport.inFlight === 0 && !transport.connected)
        this.expire(transport);
    }
  }
}
