/**
 * Who sent a request, as the HTTP handler decides it where it authenticates: what the auth hook
 * returned, the principal key computed from it (`principalOf`), the one identity sessions are bound
 * to, and the client its per-client limits count against.
 */

import { principalOf } from '../../auth/principal.js';
import type { HttpRequest } from '../seam/view.js';
import type { ClientLimits } from '../sessions/client-limits.js';

export interface Caller {
  /** What the `authenticate` hook returned (undefined without auth). */
  readonly auth: unknown;
  /** The principal key (undefined without auth). */
  readonly principal: string | undefined;
  /** The client per-client limits count against: the principal, else the address. */
  readonly client: string | undefined;
}

/** The caller of a request; `authenticated` says whether an auth hook ran (else there is no principal). */
export function callerOf(
  req: HttpRequest,
  auth: unknown,
  authenticated: boolean,
  limits: ClientLimits,
): Caller {
  const principal = authenticated ? principalOf(auth, req.header('authorization')) : undefined;
  return { auth, principal, client: limits.clientOf(req, principal) };
}
