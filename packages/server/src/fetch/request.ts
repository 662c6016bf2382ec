/**
 * The request side of the fetch handler: a web Request seen through the few IncomingMessage
 * members the shared HTTP code reads (method, url, headers, socket.encrypted), with the body left
 * as a reader that the shared code calls, under its cap, only once the request passed its checks.
 */

import { readCappedText } from '../auth/capped-body.js';
import { BodyTooLargeError } from '../http/adapters/body.js';

export interface WebRequestView {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly socket: { readonly encrypted: boolean };
  readonly body: (limit: number) => Promise<string>;
  readonly readableEnded: undefined;
  /** The web Request itself, for an `authenticate` callback that wants it. */
  readonly request: Request;
}

export function viewOf(request: Request): WebRequestView {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= url.host;
  return {
    method: request.method.toUpperCase(),
    url: `${url.pathname}${url.search}`,
    headers,
    socket: { encrypted: url.protocol === 'https:' },
    body: (limit) => readText(request, limit),
    readableEnded: undefined,
    request,
  };
}

/** The body as text, refused with BodyTooLargeError as soon as it grows past `limit` bytes. */
function readText(request: Request, limit: number): Promise<string> {
  return readCappedText(request.body, limit, () => new BodyTooLargeError(limit));
}
