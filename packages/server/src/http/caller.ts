/**
 * Who sent a request, as the HTTP handler decides it where it authenticates: what the auth hook
 * returned and the principal key computed from it (`principalOf`), the one identity sessions are
 * bound to.
 */

import type { IncomingMessage } from 'node:http';
import { principalOf } from '../auth/principal.js';
import { header } from './guards.js';

export interface Caller {
  /** What the `authenticate` hook returned (undefined without auth). */
  readonly auth: unknown;
  /** The principal key (undefined without auth). */
  readonly principal: string | undefined;
}

export const ANONYMOUS: Caller = { auth: undefined, principal: undefined };

/** The caller of an authenticated request. */
export function callerOf(req: IncomingMessage, auth: unknown): Caller {
  return { auth, principal: principalOf(auth, header(req, 'authorization')) };
}
