/** The sessions of one handler, with idle expiry. */

import type { HttpServerTransport } from './transport.js';

export class SessionTable {
  readonly #byId = new Map<string, HttpServerTransport>();
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

  add(transport: HttpServerTransport): void {
    if (transport.sessionId === undefined) return;
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

  async closeAll(): Promise<void> {
    const all = [...this.#byId.values()];
    await Promise.allSettled(all.map((transport) => transport.close()));
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
