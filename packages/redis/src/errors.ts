// The base of the errors of @entropic-mcp/redis: a string `code` that names each error for good.

/**
 * The base of every error this package throws on purpose (`RedisUnavailableError`, `RedisTimeoutError`,
 * `RedisWriteRefusedError`). `code` says which error it is and is stable across releases: match on it,
 * never on the message.
 */
export class RedisError<C extends string = string> extends Error {
  override readonly name: string = 'RedisError';
  readonly code: C;

  constructor(code: C, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
