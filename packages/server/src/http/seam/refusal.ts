/**
 * The one shape of a refusal: the HTTP status and the JSON-RPC error the endpoint answers with.
 * Checks return one; a stage that refuses throws it inside `Refused`, and `stages/failure.ts` writes it.
 */

import { McpServerError } from '../../core/errors.js';

export interface Refusal {
  readonly status: number;
  /** The JSON-RPC error code of the body. */
  readonly code: number;
  readonly message: string;
  /** The JSON-RPC error's `data`, when it has one. */
  readonly data?: unknown;
  /** Extra response headers (`Retry-After`, `WWW-Authenticate`, `Allow`…). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The id to answer with (null when the request's id is not known). */
  readonly id?: unknown;
}

/** A session this process does not hold for this caller (or that never was): 404, never telling which. */
export const SESSION_NOT_FOUND: Refusal = { status: 404, code: -32001, message: 'Session not found' };

/** The answer to a request whose session closed before it was answered. */
export const SESSION_CLOSED: Refusal = { status: 404, code: -32001, message: 'Session closed' };

/** 409: the request collides with one already running (a repeated request id, a second GET stream). */
export function conflict(code: number, message: string): Refusal {
  return { status: 409, code, message };
}

/** A refusal on its way out of a stage; `cause` (reported through `onError`) is what made it. */
export class Refused extends McpServerError<'HTTP_REFUSED'> {
  override readonly name = 'Refused';

  constructor(
    readonly refusal: Refusal,
    readonly reason?: unknown,
  ) {
    super('HTTP_REFUSED', refusal.message);
  }
}

/** Throw `refusal` out of the stage that found it. */
export function refuse(refusal: Refusal, reason?: unknown): never {
  throw new Refused(refusal, reason);
}
