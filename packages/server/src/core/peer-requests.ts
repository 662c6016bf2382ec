/**
 * Requests the server sends to the client (elicitation, sampling, roots, anything else): ids, the
 * answers routed back by id, timeouts and cancellation (which tell the client with
 * notifications/cancelled).
 */

import { ErrorCode, McpError, type WireError } from './errors.js';
import type { PeerRequestOptions, RequestId } from './handler-types.js';
import type { JsonRpcMessage } from './transport.js';

interface Pending {
  settle(message: Record<string, unknown>): void;
  fail(error: unknown): void;
}

type Send = (message: JsonRpcMessage, related?: RequestId) => void;

export class PeerRequests {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly send: Send,
    private readonly defaultTimeoutMs: number,
  ) {}

  /** Send `method` and resolve with the client's result (reject with its error as an McpError). */
  start<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: PeerRequestOptions | undefined,
    related: RequestId | undefined,
    originSignal: AbortSignal | undefined,
  ): Promise<T> {
    const id = ++this.nextId;
    const signals = [options?.signal, originSignal].filter((s): s is AbortSignal => s !== undefined);
    for (const signal of signals) if (signal.aborted) return Promise.reject(signal.reason);
    const timeoutMs = options?.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cleanup = (): void => {
        this.pending.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        for (const signal of signals) signal.removeEventListener('abort', onAbort);
      };
      const giveUp = (reason: string, error: unknown): void => {
        cleanup();
        const params = { requestId: id, reason };
        this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params }, related);
        reject(error);
      };
      const onAbort = (): void => {
        const reason = signals.find((s) => s.aborted)?.reason;
        giveUp(String(reason), reason);
      };
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          giveUp(
            'timed out',
            new McpError(ErrorCode.RequestTimeout, `${method} got no answer within ${timeoutMs} ms`),
          );
        }, timeoutMs);
      }
      for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        settle: (message) => {
          cleanup();
          const error = message.error as WireError | undefined;
          if (error !== undefined)
            reject(new McpError(Number(error.code), String(error.message), error.data));
          else resolve(message.result as T);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      });
      this.send(
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params },
        related,
      );
    });
  }

  /** A response from the client; ignored when its id is not one of ours. */
  settle(message: Record<string, unknown>): void {
    this.pending.get(message.id as number)?.settle(message);
  }

  /**
   * Reject everything still waiting (the connection closed) with the error `reason` makes: made only when
   * something waits, since an Error takes a stack trace, and a connection of one exchange closes on every request.
   */
  failAll(reason: () => unknown): void {
    if (this.pending.size === 0) return;
    const error = reason();
    for (const pending of [...this.pending.values()]) pending.fail(error);
    this.pending.clear();
  }
}
