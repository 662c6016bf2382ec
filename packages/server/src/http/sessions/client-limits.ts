/**
 * What one client may hold at once in this process, so that no client can make the node refuse the
 * others: legacy sessions, requests whose response is still open (SSE streams, GET streams, answers
 * being waited for), and connections in use. A client is its principal when the request was
 * authenticated, else its address (behind a trusted proxy, the address that proxy put last in
 * `X-Forwarded-For`); connections are counted per address.
 */

import type { IncomingMessage } from 'node:http';
import { type Refusal, refuse } from '../seam/refusal.js';
import { sendRefusal } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';

export interface ClientLimitOptions {
  readonly maxSessionsPerClient: number;
  readonly maxStreamsPerClient: number;
  readonly trustedProxies: readonly string[];
}

/** An address as node reports it, IPv4-mapped IPv6 written as plain IPv4. */
export function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') === true && address.includes('.') ? address.slice(7) : address;
}

/** The trusted proxies' addresses, written as `plainAddress` writes a peer's. */
function addresses(list: readonly string[]): Set<string> {
  return new Set(list.map((a) => plainAddress(a) as string));
}

/** The 429 every per-client refusal answers, naming the limit and its option. */
function clientRefusal(
  what: string,
  limit: number,
  option: string,
  headers: Record<string, string> = {},
): Refusal {
  return {
    status: 429,
    code: -32000,
    message: `Too Many Requests: this client already holds ${limit} ${what}, the most allowed (${option})`,
    headers: { 'retry-after': '5', ...headers },
  };
}

/** How many of something each key holds. */
class Tally {
  readonly #held = new Map<string, number>();

  held(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  add(key: string): void {
    this.#held.set(key, this.held(key) + 1);
  }

  remove(key: string): void {
    const left = this.held(key) - 1;
    if (left <= 0) this.#held.delete(key);
    else this.#held.set(key, left);
  }
}

export class ClientLimits {
  readonly #options: ClientLimitOptions;
  readonly #trusted: Set<string>;
  readonly #streams = new Tally();
  readonly #sessions = new Tally();
  readonly #sessionOf = new WeakMap<object, string>();

  constructor(options: ClientLimitOptions) {
    this.#options = options;
    this.#trusted = addresses(options.trustedProxies);
  }

  /** The client a request comes from: its principal, else its address; undefined when neither is known. */
  clientOf(req: HttpRequest, principal: string | undefined): string | undefined {
    if (principal !== undefined) return `p:${principal}`;
    const peer = plainAddress(req.remoteAddress);
    if (peer === undefined) return undefined;
    if (this.#trusted.has(peer)) {
      const last = req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
      if (last !== undefined && last !== '') return `a:${plainAddress(last)}`;
    }
    return `a:${peer}`;
  }

  /**
   * Count `res` as an open response of `client` until it closes; refuses with 429 when the client
   * already holds `maxStreamsPerClient`.
   */
  admit(client: string | undefined, res: ResponseSink): void {
    const max = this.#options.maxStreamsPerClient;
    if (client === undefined || max === 0) return;
    if (this.#streams.held(client) >= max) refuse(clientRefusal('open streams', max, 'maxStreamsPerClient'));
    this.#streams.add(client);
    res.once('close', () => this.#streams.remove(client));
  }

  /** Refuses with 429 when `client` may not open another session. */
  checkSessionRoom(client: string | undefined): void {
    const max = this.#options.maxSessionsPerClient;
    if (client === undefined || max === 0 || this.#sessions.held(client) < max) return;
    refuse(clientRefusal('sessions', max, 'maxSessionsPerClient'));
  }

  /** `session` was opened by `client`. */
  opened(client: string | undefined, session: object): void {
    if (client === undefined) return;
    this.#sessionOf.set(session, client);
    this.#sessions.add(client);
  }

  /** `session` ended here. */
  ended(session: object): void {
    const client = this.#sessionOf.get(session);
    if (client === undefined) return;
    this.#sessionOf.delete(session);
    this.#sessions.remove(client);
  }
}

/**
 * Connections one address may hold in use at once: a connection counts from the start of a request
 * until its response closes. Idle keep-alive connections are not counted: HTTP clients keep up to
 * twice their concurrency open (the official SDK client with 200 calls in flight, round after round,
 * held 401), and node closes them after `keepAliveTimeout`. Trusted proxies' own connections are not
 * counted; their clients are told apart per request.
 */
export class ConnectionsInUse {
  readonly #max: number;
  readonly #trusted: Set<string>;
  readonly #byAddress = new Tally();
  /** Requests in progress on each connection (more than one only when pipelined). */
  readonly #requests = new WeakMap<object, number>();

  constructor(max: number, trustedProxies: readonly string[]) {
    this.#max = max;
    this.#trusted = addresses(trustedProxies);
  }

  /**
   * Count `req`'s connection as in use until `res` closes; answers 429 and closes the connection (and
   * returns false) when its address already holds `max` connections in use.
   */
  admit(req: IncomingMessage, res: ResponseSink): boolean {
    const address = plainAddress(req.socket.remoteAddress);
    if (this.#max === 0 || address === undefined || this.#trusted.has(address)) return true;
    const socket = req.socket;
    const running = this.#requests.get(socket) ?? 0;
    if (running === 0) {
      if (this.#byAddress.held(address) >= this.#max) {
        const refusal = clientRefusal('connections in use', this.#max, 'maxConnectionsPerClient', {
          connection: 'close',
        });
        sendRefusal(res, refusal);
        return false;
      }
      this.#byAddress.add(address);
    }
    this.#requests.set(socket, running + 1);
    res.once('close', () => {
      const left = (this.#requests.get(socket) ?? 1) - 1;
      this.#requests.set(socket, left);
      if (left === 0) this.#byAddress.remove(address);
    });
    return true;
  }
}
