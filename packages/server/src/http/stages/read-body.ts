/** The POST stages before a message exists: its Accept and Content-Type, then its body read under the cap. */

import type { ResolvedHandlerOptions } from '../options.js';
import { BodyConsumedError, BodyTooLargeError } from '../seam/body-errors.js';
import { refuse } from '../seam/refusal.js';
import type { HttpRequest } from '../seam/view.js';
import { checkPostHeaders } from './guards.js';

/** The parsed body; refuses with 406/415 for its headers, 413 when too large, 400 when not JSON. */
export async function readBody(req: HttpRequest, opts: ResolvedHandlerOptions): Promise<unknown> {
  const refusal = checkPostHeaders(req);
  if (refusal !== undefined) refuse(refusal);
  try {
    return await req.readBody(opts.maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError || error instanceof BodyConsumedError) throw error;
    return refuse({ status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' });
  }
}
