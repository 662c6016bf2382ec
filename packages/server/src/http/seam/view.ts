/**
 * The small, I/O-free view of an HTTP request that the endpoint's decisions are made over: the
 * method, a header getter and the parsed body. node:http and web-standard (Request) hosts each
 * build one, and share every decision made from it.
 */

export interface RequestView {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** One header's value by lower-case name (repeated headers joined by ", "), or undefined. */
  header(name: string): string | undefined;
}

/** What an HTTP decision refuses with: a status, a JSON-RPC error, and the id to answer with. */
export interface HttpRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}
