/**
 * Ids that say which process made them, when several processes serve one session: a server→client
 * request id becomes `<node>~<n>`, so the client's answer (POSTed to any process) can be sent to the
 * process waiting for it; a stream id becomes `<session>.<node>-<n>` (`-g<n>` for a GET stream), so
 * streams of different processes never share a log and a GET stream can be taken over.
 */

import type { JsonRpcMessage } from '../../core/transport.js';

const SEPARATOR = '~';

/** `message` with its server→client request id (or the id a cancellation names) tagged. */
export function tagOutgoing(message: JsonRpcMessage, nodeId: string): JsonRpcMessage {
  if (message.method === undefined) return message;
  if (typeof message.id === 'number') return { ...message, id: `${nodeId}${SEPARATOR}${message.id}` };
  const params = message.params as Record<string, unknown> | undefined;
  if (message.method === 'notifications/cancelled' && typeof params?.requestId === 'number') {
    return { ...message, params: { ...params, requestId: `${nodeId}${SEPARATOR}${params.requestId}` } };
  }
  return message;
}

/**
 * Where a response from the client belongs: `local` (its id was untagged in place, ready for the
 * core), `remote` (another process made the request), or `none` (not a tagged id at all).
 */
export function routeResponse(message: JsonRpcMessage, nodeId: string): 'local' | 'remote' | 'none' {
  const id = message.id;
  if (typeof id !== 'string') return 'none';
  const at = id.lastIndexOf(SEPARATOR);
  const n = id.slice(at + 1);
  if (at <= 0 || !/^[0-9]{1,15}$/.test(n)) return 'none';
  if (id.slice(0, at) !== nodeId) return 'remote';
  message.id = Number(n);
  return 'local';
}

export function streamIdOf(sessionId: string, nodeId: string | undefined, seq: number, get: boolean): string {
  if (nodeId === undefined) return `${sessionId}.${seq}`;
  return `${sessionId}.${nodeId}-${get ? 'g' : ''}${seq}`;
}

/** Whether a stream id names the GET stream of some process. */
export function isGetStream(streamId: string): boolean {
  return /-g[0-9]+$/.test(streamId);
}

/** The process that writes a stream of `sessionId` (undefined for a stream id without a process tag). */
export function nodeOfStream(sessionId: string, streamId: string): string | undefined {
  if (!streamId.startsWith(`${sessionId}.`)) return undefined;
  const match = /^(.+)-g?[0-9]+$/.exec(streamId.slice(sessionId.length + 1));
  return match?.[1];
}
