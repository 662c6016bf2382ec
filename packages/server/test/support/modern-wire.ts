/**
 * The 2026-07-28 wire as a client writes it over Streamable HTTP (the `_meta` envelope is in
 * modern-envelope.ts): the routing headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) with the spec's
 * base64 sentinel encoding, and one POST that returns the single JSON-RPC answer (JSON or SSE body).
 */

import { sseMessages } from './http-helpers.js';
import { MODERN } from './modern-envelope.js';

/** `=?base64?…?=` of the UTF-8 bytes of `value`. */
export function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A header value as a conforming client writes it: plain when header-safe, the sentinel otherwise. */
export function headerValue(value: string): string {
  const safe = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?');
  return safe ? value : sentinel(value);
}

/** The headers a conforming client sends with `body`. */
export function modernHeaders(body: {
  method: string;
  params?: Record<string, unknown>;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': body.method,
  };
  const name = body.params?.name ?? body.params?.uri;
  if (['tools/call', 'resources/read', 'prompts/get'].includes(body.method) && typeof name === 'string')
    headers['mcp-name'] = headerValue(name);
  return headers;
}

export interface Answer {
  status: number;
  /** The JSON-RPC response, when the body held one. */
  message: Record<string, unknown> | undefined;
  text: string;
}

/** POST `body` with `headers` (undefined values left out); the JSON-RPC response with id `id`, if any. */
export async function postModern(
  url: string,
  body: unknown,
  headers: Record<string, string | undefined>,
): Promise<Answer> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) clean[k] = v;
  const res = await fetch(url, {
    method: 'POST',
    headers: clean,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let messages: Record<string, unknown>[] = [];
  try {
    messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
      ? sseMessages(text)
      : [JSON.parse(text) as Record<string, unknown>];
  } catch {
    messages = [];
  }
  const message = messages.find((m) => 'result' in m || 'error' in m);
  return { status: res.status, message, text };
}

/** The result of an answer (an empty object when it carried an error or nothing). */
export function resultOf(answer: Answer): Record<string, unknown> {
  return (answer.message?.result ?? {}) as Record<string, unknown>;
}

/** The first text block of a tool result. */
export function firstText(result: Record<string, unknown>): string | undefined {
  return (result.content as { text?: string }[] | undefined)?.[0]?.text;
}
