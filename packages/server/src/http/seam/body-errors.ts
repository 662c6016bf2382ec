/** The two ways reading a request body fails before its JSON is parsed: too large, or already read. */

import { McpServerError } from '../../core/errors.js';

export class BodyTooLargeError extends McpServerError<'BODY_TOO_LARGE'> {
  override readonly name = 'BodyTooLargeError';

  constructor(readonly limit: number) {
    super('BODY_TOO_LARGE', `Payload Too Large: the request body exceeds ${limit} bytes`);
  }
}

/** The stream was read before the handler ran, and nothing was left in `req.body`. */
export class BodyConsumedError extends McpServerError<'BODY_CONSUMED'> {
  override readonly name = 'BodyConsumedError';

  constructor() {
    const message =
      'Bad Request: the request body was already read by a body parser that left nothing in req.body';
    super('BODY_CONSUMED', message);
  }
}
