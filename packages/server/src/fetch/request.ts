/**
 * The request side of the fetch handler: a web Request seen through the few IncomingMessage
 * members the shared HTTP code reads (method, url, headers, socket.encrypted), with the body left
 * as a reader that the shared code calls, under its cap, only once the request passed its checks.
 */

import { BodyTooLargeError } from '../http/body.js';

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

const utf8 = new TextDecoder();

/** The body as text, refused with BodyTooLargeError as soon as it grows past `limit` bytes. */
async function readText(request: Request, limit: number): Promise<string> {
  const body = request.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return utf8.decode(all);
}
