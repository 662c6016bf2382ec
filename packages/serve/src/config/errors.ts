// The errors of @entropic-mcp/serve: one base, `ServeError`, whose string `code` names each error for good,
// and `UsageError`, the one error every command throws for a bad command line.

/**
 * The base of every error this package throws on purpose. `code` says which error it is and is stable across
 * releases: match on it, never on the message.
 */
export class ServeError<C extends string = string> extends Error {
  override readonly name: string = 'ServeError';
  readonly code: C;

  constructor(code: C, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A bad command line (serve's or any other command's); the message says which option and why. */
export class UsageError extends ServeError<'ENTROPIC_MCP_USAGE'> {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super('ENTROPIC_MCP_USAGE', message);
  }
}
