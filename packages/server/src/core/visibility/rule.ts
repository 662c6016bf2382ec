/**
 * Visibility rules, decided here only: a registration's `scopes` and `visible` compiled once into one
 * check, and who the caller of a request is. A rule that throws hides its item (fail closed).
 */

import { LocalError } from '../errors.js';
import type { VisibilityRule } from '../registry.js';
import type { AuthInfo, Caller, Visibility } from '../types.js';

/** The caller of stdio, in-memory and unauthenticated HTTP connections. */
export const ANONYMOUS: Caller = Object.freeze({ auth: undefined, principal: undefined });

/** The caller of a request, from the context its transport gave it. */
export function callerOf(
  context: { readonly auth?: unknown; readonly principal?: string } | undefined,
): Caller {
  if (context?.auth === undefined && context?.principal === undefined) return ANONYMOUS;
  return { auth: context.auth as AuthInfo | undefined, principal: context.principal };
}

/** The scopes a caller holds: `auth.scopes` when it is an array, else none. */
export function heldScopes(auth: unknown): readonly unknown[] {
  const scopes = (auth as { scopes?: unknown } | null | undefined)?.scopes;
  return Array.isArray(scopes) ? scopes : [];
}

/** Check `scopes` and `visible` of a definition (`what` names it) and compile them; undefined: all see it. */
export function compileVisibility(definition: Visibility, what: string): VisibilityRule | undefined {
  const { scopes, visible } = definition;
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string'))) {
    throw new LocalError('INVALID_ARGUMENT', `the scopes of ${what} must be an array of strings`);
  }
  if (visible !== undefined && typeof visible !== 'function') {
    throw new LocalError('INVALID_ARGUMENT', `the visible of ${what} must be a function of the caller`);
  }
  const needed = scopes === undefined || scopes.length === 0 ? undefined : [...scopes];
  if (needed === undefined && visible === undefined) return undefined;
  return (caller) => {
    if (needed !== undefined) {
      const held = heldScopes(caller.auth);
      if (!needed.every((scope) => held.includes(scope))) return false;
    }
    if (visible === undefined) return true;
    try {
      return visible(caller) === true;
    } catch {
      return false;
    }
  };
}

/**
 * Whether two callers are the same for visibility without asking the rules again: the same value,
 * or two verifications of one bearer token (same token string, same principal).
 */
export function sameCaller(a: Caller, b: Caller): boolean {
  if (a === b || (a.auth === b.auth && a.principal === b.principal)) return true;
  const tokenA = (a.auth as { token?: unknown } | undefined)?.token;
  const tokenB = (b.auth as { token?: unknown } | undefined)?.token;
  return typeof tokenA === 'string' && tokenA === tokenB && a.principal === b.principal;
}
