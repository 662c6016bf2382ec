/**
 * Error replies of the HTTP layer: a status code and a JSON-RPC error body naming what was wrong.
 * Bodies never carry stack traces, file paths or the text of unexpected exceptions.
 */

import { ErrorCode, UNAVAILABLE_RETRY_AFTER_S } from '../../core/errors.js';
import { countRejected } from '../../core/telemetry/instruments.js';
import type { RejectReason } from '../../core/telemetry/names.js';
import type { Refusal } from './refusal.js';
import type { ResponseSink } from './sink.js';

const encoder = new TextEncoder();

/** The UTF-8 length of `text`: Buffer's count where there is one (Node, Bun, Deno), else an encode. */
export const byteLength: (text: string) => number =
  typeof Buffer === 'function'
    ? (text) => Buffer.byteLength(text)
    : (text) => encoder.encode(text).byteLength;

/** Answer with `refusal` (counted in `mcp.server.request.rejected` when it is a refusal of that kind). */
export function sendRefusal(res: ResponseSink, refusal: Refusal): void {
  const reason = refusalReason(refusal.status, refusal.headers);
  if (reason !== undefined) countRejected(reason);
  writeJsonError(
    res,
    refusal.status,
    refusal.code,
    refusal.message,
    refusal.headers,
    refusal.id,
    refusal.data,
  );
}

/**
 * 503 with Retry-After for a request refused because shared state could not be used (unreachable, or
 * refusing writes): an outage, not a limit, so not counted as a refusal.
 */
export function sendUnavailable(res: ResponseSink, message: string, id: unknown = null): void {
  writeJsonError(res, 503, ErrorCode.ServerBusy, message, RETRY_AFTER, id);
}

const RETRY_AFTER = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) };

/** Answer with a JSON-RPC error and `status`, counted nowhere (see `sendRefusal`). */
export function writeJsonError(
  res: ResponseSink,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> | undefined,
  id: unknown,
  data?: unknown,
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const more = data === undefined ? '' : `,"data":${JSON.stringify(data)}`;
  const body = `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)}${more}},"id":${JSON.stringify(id ?? null)}}`;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(byteLength(body)),
  });
  res.end(body);
}

/**
 * Which refusals count in `mcp.server.request.rejected`, by status: the caller's credentials (401, 403), a
 * limit (413, 429, and 503 with a Retry-After: a cap, not an outage), or a malformed request (400, 405, 406,
 * 415). Not found (404) and server failures (5xx without Retry-After) are not refusals of this kind.
 */
function refusalReason(
  status: number,
  headers: Readonly<Record<string, string>> | undefined,
): RejectReason | undefined {
  if (status === 401 || status === 403) return 'auth';
  if (status === 413 || status === 429) return 'limits';
  if (status === 503) return headers?.['retry-after'] === undefined ? undefined : 'limits';
  if (status === 400 || status === 405 || status === 406 || status === 415) return 'validation';
  return undefined;
}

/**
 * Response headers as a flat name/value list, built once per session: node:http takes it as is,
 * without walking an object's keys on every response.
 */
export type Head = readonly string[];

/** `head` plus the Content-Length of `body`. */
export function withLength(head: Head, body: string): string[] {
  return head.concat('content-length', String(byteLength(body)));
}

/**
 * One JSON body: 200, or 503 with Retry-After when `retryAfter` is given (the answer is an error
 * refusing the request because shared state was unavailable; see `retryAfterOf`).
 */
export function sendJson(res: ResponseSink, head: Head, text: string, retryAfter?: number): void {
  const status = retryAfter === undefined ? 200 : 503;
  const full = retryAfter === undefined ? head : head.concat('retry-after', String(retryAfter));
  res.writeHead(status, withLength(full, text));
  res.end(text);
}

/**
 * The answer to a server→client request made without a session: the client's answer would arrive in
 * another request that knows nothing of this one, so it fails at once instead of at its timeout.
 */
export function statelessRefusal(id: string | number): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32601, message: 'Server-to-client requests need a stateful HTTP session' },
  };
}
