/** What one HTTP transport is told when it is made (by the handler, or by an embedding application). */

import type { JsonRpcMessage } from '../../core/transport.js';
import type { EventStore } from '../state/event-store.js';
import type { HeadHold } from '../streams/head-hold.js';
import type { KeepAlive } from '../streams/keep-alive.js';

/** `T` is the transport class itself (kept generic so this file needs nothing from it). */
export interface HttpTransportConfig<T = unknown> {
  /** The session id, or undefined for a stateless request. */
  readonly sessionId: string | undefined;
  /** Answer requests with one JSON body instead of an SSE stream. */
  readonly jsonResponse: boolean;
  /** The replay log; undefined turns resumability off. */
  readonly eventStore: EventStore | undefined;
  /** `retry` (ms) sent before the server closes a stream to make the client poll. */
  readonly retryMs: number;
  /**
   * Holds back the head of a POST's SSE answer until its first message or the end of the hold. Default
   * none: the head (and priming event) leave as soon as the request was handed to the server.
   */
  readonly headHold?: HeadHold;
  /** Writes keep-alive comments on open streams. Default none. */
  readonly keepAlive?: KeepAlive;
  /** Messages kept for the standalone stream while no GET is connected. */
  readonly maxBacklog: number;
  /** Called once when the transport closes (the handler forgets the session). */
  readonly onEnd?: (transport: T) => void;
  /** This process's tag when several processes serve one session (see node-tags.ts). */
  readonly nodeId?: string;
  /**
   * Whether the process `nodeId` is gone for good (a resumed stream of it that never got its answer
   * then gets an error). Undefined: every process is presumed running.
   */
  readonly isGone?: (nodeId: string) => Promise<boolean>;
  /** A connection-wide message with no GET stream here: true when another process takes it. */
  readonly elsewhere?: (message: JsonRpcMessage) => boolean;
  /**
   * The GET stream here got a live connection (fresh, or a resumption that took over `resumed.stream`,
   * replayed through `resumed.through`): other processes must stop writing to theirs.
   */
  readonly onHold?: (transport: T, resumed?: { readonly stream: string; readonly through: string }) => void;
  /** The core refused the session's initialize (its rate limit): the session never existed for the client. */
  readonly onRefusedStart?: () => void;
}
