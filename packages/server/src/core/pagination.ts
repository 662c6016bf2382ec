/** Opaque list cursors: a tagged offset the client must hand back unchanged. */

import { ErrorCode, McpError } from './errors.js';

const PREFIX = 'p1.';

export function encodeCursor(offset: number): string {
  return PREFIX + offset.toString(36);
}

/** The offset a cursor stands for; -32602 for anything this server did not hand out. */
export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === 'string' && cursor.startsWith(PREFIX)) {
    const body = cursor.slice(PREFIX.length);
    if (/^[0-9a-z]{1,10}$/.test(body)) return Number.parseInt(body, 36);
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { cursor });
}

/** One page of `items` starting at `cursor`, keyed under `key`, with `nextCursor` when more remain. */
export function page<T>(
  key: string,
  items: readonly T[],
  cursor: unknown,
  size: number,
): Record<string, unknown> {
  const start = decodeCursor(cursor);
  if (start > items.length) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { cursor });
  const end = start + size;
  if (start === 0 && end >= items.length) return { [key]: items };
  const result: Record<string, unknown> = { [key]: items.slice(start, end) };
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return result;
}
