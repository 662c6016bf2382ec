/** Small helpers for answers: unserialisable results, usable ids, the request ids of a batch. */

import { ErrorCode, type WireError } from './errors.js';
import type { RequestId } from './handler-types.js';

export function unserialisable(method: string, error: unknown): WireError {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: ErrorCode.InternalError,
    message: `Internal error in ${method}: the result is not valid JSON (${detail})`,
  };
}

/** `message` when it serialises; otherwise the error answer that replaces it (batch answers only). */
export function serialisable(message: Record<string, unknown>, method: string): Record<string, unknown> {
  try {
    JSON.stringify(message);
    return message;
  } catch (error) {
    return { jsonrpc: '2.0', id: message.id, error: unserialisable(method, error) };
  }
}

export function usableId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** The id of a batch element that is a request, as a list of zero or one. */
export function requestId(item: unknown): RequestId[] {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return [];
  const { id, method } = item as Record<string, unknown>;
  return typeof method === 'string' && usableId(id) ? [id] : [];
}
