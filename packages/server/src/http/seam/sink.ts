/**
 * The response side of the HTTP seam: the few writes the endpoint makes (status and headers, body
 * chunks, the end) and the one event it listens for (the response closed). node:http's ServerResponse
 * is one as it is; the fetch handler's sink turns the same writes into a web Response.
 */

/** One header's value as the endpoint writes it. */
export type HeaderValue = string | number | readonly string[];

/** Headers as a flat name/value list (built once and reused) or an object, as node:http takes them. */
export type HeaderList =
  | (string | number | string[])[]
  | { [name: string]: string | number | string[] | undefined };

export interface ResponseSink {
  /** The status line and headers have been written (nothing more can change them). */
  readonly headersSent: boolean;
  /** `end` was called. */
  readonly writableEnded: boolean;
  /** The client went away before the end. */
  readonly destroyed: boolean;
  writeHead(status: number, headers?: HeaderList): this;
  setHeader(name: string, value: HeaderValue): this;
  /** Send the status line and headers now, before any body. */
  flushHeaders(): void;
  write(chunk: string): boolean;
  end(chunk?: string): this;
  /** `listener` runs once the response is over: ended and flushed, or cut off. */
  once(event: 'close', listener: () => void): this;
}
