/** The two ways reading a request body fails before its JSON is parsed: too large, or already read. */

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Payload Too Large: the request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The stream was read before the handler ran, and nothing was left in `req.body`. */
export class BodyConsumedError extends Error {
  constructor() {
    super('Bad Request: the request body was already read by a body parser that left nothing in req.body');
    this.name = 'BodyConsumedError';
  }
}
