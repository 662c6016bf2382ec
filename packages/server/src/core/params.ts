/**
 * Helpers every method handler of the core shares (built-in methods, tasks, extensions, the modern
 * methods): parameter errors that name a JSON pointer.
 */

import { ErrorCode, McpError } from './errors.js';
import { isThenable } from './later.js';

export function invalidParams(message: string, pointer: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`, { pointer });
}

export function requireString(
  params: Record<string, unknown> | undefined,
  key: string,
  method: string,
): string {
  const value = params?.[key];
  if (typeof value !== 'string')
    throw invalidParams(`${method} needs params.${key} as a string`, `/params/${key}`);
  return value;
}

export function optionalObject(
  params: Record<string, unknown> | undefined,
  key: string,
  method: string,
): Record<string, unknown> | undefined {
  const value = params?.[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(`${method} needs params.${key} as an object`, `/params/${key}`);
  }
  return value as Record<string, unknown>;
}

/** Apply `next` to a value that may still be a promise, without awaiting when it is not. */
export function andThen<T, R>(value: T | PromiseLike<T>, next: (v: T) => R): R | PromiseLike<R> {
  return isThenable(value) ? (value as PromiseLike<T>).then(next) : next(value as T);
}
