/**
 * What one client may hold at once in this process, so that no client can make the node refuse the
 * others: legacy sessions, and requests whose response is still open (SSE streams, GET streams, answers
 * being waited for). A client is its principal when the request was authenticated, else its address
 * (behind a trusted proxy, the address that proxy put last in `X-Forwarded-For`).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonError } from './reply.js';

export interface ClientLimitOptions {
  readonly maxSessionsPerClient: number;
  readonly maxStreamsPerClient: number;
  readonly trustedProxies: readonly string[];
}

export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100;
export const DEFAULT_MAX_STREAMS_PER_CLIENT = 64;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 64;

/** An address as node reports it, IPv4-mapped IPv6 written as plain IPv4. */
export function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') === true && address.includes('.') ? address.slice(7) : address;
}

/** The 429 every per-client refusal answers, naming the limit and its option. */
export function refuseClient(
  res: ServerResponse,
  what: string,
  limit: number,
  option: string,
  headers: Record<string, string> = {},
): void {
  sendJsonError(
    res,
    429,
    -32000,
    `Too Many Requests: this client already holds ${limit} ${what}, the most allowed (${option})`,
    { 'retry-after': '5', ...headers },
  );
}

export class ClientLimits {
  readonly #options: ClientLimitOptions;
  readonly #trusted: Set<string>;
  readonly #streams = new Map<string, number>();
  readonly #sessions = new Map<string, number>();
  readonly #sessionOf = new WeakMap<object, string>();

  constructor(options: ClientLimitOptions) {
    this.#options = options;
    this.#trusted = new Set(options.trustedProxies.map((a) => plainAddress(a) as string));
  }

  /** The client a request comes from: its principal, else its address; undefined when neither is known. */
  clientOf(req: IncomingMessage, principal: string | undefined): string | undefined {
    if (principal !== undefined) return `p:${principal}`;
    const peer = plainAddress(req.socket?.remoteAddress);
    if (peer === undefined) return undefined;
    if (this.#trusted.has(peer)) {
      const forwarded = req.headers['x-forwarded-for'];
      const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim();
      if (last !== undefined && last !== '') return `a:${plainAddress(last)}`;
    }
    return `a:${peer}`;
  }

  /**
   * Count `res` as an open response of `client` until it closes; answers 429 (and returns false) when
   * the client already holds `maxStreamsPerClient`.
   */
  admit(client: string | undefined, res: ServerResponse): boolean {
    const max = this.#options.maxStreamsPerClient;
    if (client === undefined || max === 0) return true;
    const held = this.#streams.get(client) ?? 0;
    if (held >= max) {
      refuseClient(res, 'open streams', max, 'maxStreamsPerClient');
      return false;
    }
    this.#streams.set(client, held + 1);
    res.once('close', () => {
      const left = (this.#streams.get(client) ?? 1) - 1;
      if (left <= 0) this.#streams.delete(client);
      else this.#streams.set(client, left);
    });
    return true;
  }

  /** Whether `client` may open another session; answers 429 when it may not. */
  mayOpenSession(client: string | undefined, res: ServerResponse): boolean {
    const max = this.#options.maxSessionsPerClient;
    if (client === undefined || max === 0 || (this.#sessions.get(client) ?? 0) < max) return true;
    refuseClient(res, 'sessions', max, 'maxSessionsPerClient');
    return false;
  }

  /** `session` was opened by `client`. */
  opened(client: string | undefined, session: object): void {
    if (client === undefined) return;
    this.#sessionOf.set(session, client);
    this.#sessions.set(client, (this.#sessions.get(client) ?? 0) + 1);
  }

  /** `session` ended here. */
  ended(session: object): void {
    const client = this.#sessionOf.get(session);
    if (client === undefined) return;
    this.#sessionOf.delete(session);
    const left = (this.#sessions.get(client) ?? 1) - 1;
    if (left <= 0) this.#sessions.delete(client);
    else this.#sessions.set(client, left);
  }
}
