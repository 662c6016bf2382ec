/** The public shape of the Streamable HTTP handler: what it needs of a server, and what it offers. */

import type { IncomingMessage, ServerResponse } from 'node:http';

export type { ConnectableServer } from './sessions/host.js';

import type { HttpServerTransport } from './sessions/transport.js';

/** How `close` stops: at once, or after a drain. */
export interface HttpCloseOptions {
  /**
   * Drain first, for at most this long (ms): new work is refused with 503 and `Retry-After`, the calls and
   * tasks in flight may finish. What is left then is answered with an error (tasks fail). Default 0.
   */
  readonly graceMs?: number;
}

export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Sessions currently open (always 0 in stateless mode once requests are answered). */
  readonly sessionCount: number;
  /** The transport of a session, for server-side control such as `closeRequestStream`. */
  session(sessionId: string): HttpServerTransport | undefined;
  /** Whether a drain began (`close`): health checks should fail, new work goes elsewhere. */
  readonly draining: boolean;
  /**
   * Stop: drain for `graceMs` (see HttpCloseOptions), then answer what is left with an error, fail the
   * tasks still running, and close every session and stream here. Event logs are kept (another process
   * of the deployment may serve them). Idempotent.
   */
  close(options?: HttpCloseOptions): Promise<void>;
}
