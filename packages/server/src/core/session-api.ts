/** What the application sees of a connection: the Session interface and the options of connect(). */

import type { PeerRequestOptions } from './handler-types.js';
import type { ClientContext } from './protocol.js';
import type { LogLevel } from './types.js';

export interface ConnectOptions {
  /**
   * Serve requests that arrive without a prior `initialize` on this connection (stateless HTTP),
   * taking the protocol version from the message context. Default false: such requests get -32600.
   */
  allowUninitialized?: boolean;
  /**
   * The connection carries one exchange and ends (stateless HTTP, a 2026-07-28 POST): what a task
   * made on it belongs to the caller's principal, or, without one, to whoever holds its id.
   */
  ephemeral?: boolean;
}

/** One client connection, as the application sees it. */
export interface Session {
  /** The client as it presented itself at initialize (undefined before). */
  readonly client: ClientContext | undefined;
  readonly sessionId: string | undefined;
  readonly closed: boolean;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Notifications the core does not handle itself (e.g. notifications/roots/list_changed). */
  onnotification?: (method: string, params: Record<string, unknown> | undefined) => void;
  notify(method: string, params?: Record<string, unknown>): void;
  request<T = unknown>(
    method: string,
    params?: Record<string, unknown>,
    options?: PeerRequestOptions,
  ): Promise<T>;
  log(level: LogLevel, logger: string | undefined, data: unknown): void;
  close(): Promise<void>;
}
