/** Depth and element caps on a parsed message. */

import { ErrorCode } from './errors.js';
import { requestId, usableId } from './replies.js';

export interface JsonLimits {
  maxJsonDepth: number;
  maxJsonElements: number;
}

/** Depths up to this are walked recursively (fast, no allocation); deeper caps use an explicit stack. */
const RECURSION_LIMIT = 1000;

let elements = 0;
let limitDepth = 0;
let limitElements = 0;

/** -1: too deep; -2: too many elements; 0: fine. Recursion stops one level past the cap. */
function walk(node: object, depth: number): number {
  if (depth > limitDepth) return -1;
  if (Array.isArray(node)) {
    elements += node.length;
    if (elements > limitElements) return -2;
    for (let i = 0; i < node.length; i++) {
      const child = node[i];
      if (typeof child === 'object' && child !== null) {
        const verdict = walk(child, depth + 1);
        if (verdict !== 0) return verdict;
      }
    }
    return 0;
  }
  for (const key in node) {
    if (++elements > limitElements) return -2;
    const child = (node as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) {
      const verdict = walk(child, depth + 1);
      if (verdict !== 0) return verdict;
    }
  }
  return 0;
}

function walkWithStack(value: object): number {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limitDepth) return -1;
    const children = Array.isArray(node) ? node : Object.values(node);
    elements += children.length;
    if (elements > limitElements) return -2;
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return 0;
}

/** Returns a description of the first cap `value` breaks, or undefined when it is within both. */
export function checkJsonLimits(value: unknown, limits: JsonLimits): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  elements = 0;
  limitDepth = limits.maxJsonDepth;
  limitElements = limits.maxJsonElements;
  const verdict = limitDepth <= RECURSION_LIMIT ? walk(value, 1) : walkWithStack(value);
  if (verdict === -1) return `JSON nesting exceeds maxJsonDepth (${limits.maxJsonDepth})`;
  if (verdict === -2) return `JSON message has more than maxJsonElements (${limits.maxJsonElements}) values`;
  return undefined;
}

/**
 * The answer to a message over a limit. Each request of a refused batch is answered by its id, so a transport
 * that routes answers by id (HTTP) can finish the exchange; with no usable id the answer carries id null.
 */
export function overLimitAnswer(
  message: object,
  limit: string,
): Record<string, unknown> | Record<string, unknown>[] {
  const error = { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${limit}` };
  if (Array.isArray(message)) {
    const ids = message.flatMap(requestId);
    if (ids.length > 0) return ids.map((id) => ({ jsonrpc: '2.0', id, error }));
    return { jsonrpc: '2.0', id: null, error };
  }
  const id = (message as Record<string, unknown>).id;
  return { jsonrpc: '2.0', id: usableId(id) ? id : null, error };
}
