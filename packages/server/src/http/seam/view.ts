/**
 * The request side of the HTTP seam: the view of one request that the endpoint reads. Its I/O-free
 * part (`RequestView`: the method and a header getter) is what protocol decisions are made over;
 * `HttpRequest` adds what the endpoint needs of the host: the URL, the headers handed to handlers,
 * the peer, and the body. node:http and fetch each build one (`adapters/node.ts`, `fetch/request.ts`).
 */

import type { IncomingMessage } from 'node:http';

/** Request headers by lower-case name (a repeated one as a list where the host keeps it so). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface RequestView {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** One header's value by lower-case name (repeated headers joined by ", "), or undefined. */
  header(name: string): string | undefined;
}

export interface HttpRequest extends RequestView {
  /** The path and query the client sent (before a framework mount stripped a prefix). */
  readonly url: string;
  /** Every header, as handlers see them in `MessageContext.headers`. */
  readonly headers: HttpHeaders;
  /** Whether the request came over TLS. */
  readonly secure: boolean;
  /** The peer's address, when the host knows it. */
  readonly remoteAddress: string | undefined;
  /**
   * The body parsed as JSON, held to `limit` bytes. Rejects with BodyTooLargeError, BodyConsumedError,
   * or the error of reading or parsing it.
   */
  readBody(limit: number): Promise<unknown>;
  /** What an `authenticate` hook receives: the host's own request object. */
  readonly native: AuthRequest;
}

/**
 * What an `authenticate` hook receives: the node:http request, or from the fetch handler a view of the
 * web Request (its `method`, `url` path and query, lower-cased `headers`, and the `request` itself).
 */
export type AuthRequest = IncomingMessage | WebAuthRequest;

/** The fetch handler's request as an `authenticate` hook sees it. */
export interface WebAuthRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly socket: { readonly encrypted: boolean };
  /** The web Request itself. */
  readonly request: Request;
}
