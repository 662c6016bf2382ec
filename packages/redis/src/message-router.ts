/**
 * The server's MessageRouter on Redis pub/sub: one channel per session, to which every process
 * holding a copy of the session subscribes. Publishing uses the ordinary connection; receiving needs
 * a connection of its own in subscriber mode, which re-subscribes by itself after a reconnection.
 */

import { randomBytes } from 'node:crypto';
import type { MessageRouter, RoutedMessage } from '@entropic-mcp/server/http';
import type { Redis } from 'ioredis';
import { explain, withinDeadline } from './connect.js';
import { Keys } from './keys.js';
import type { NodeLiveness } from './node-liveness.js';

export interface RedisMessageRouterOptions {
  readonly keyPrefix?: string;
  /** This process's tag; default 10 random base-36 characters. */
  readonly nodeId?: string;
  /** Told about failures no request is waiting for (a SUBSCRIBE that failed, a bad payload). */
  readonly onError?: (error: Error) => void;
  /** Which processes run (`isGone`); without it, no process is ever taken for gone. */
  readonly liveness?: NodeLiveness;
}

export class RedisMessageRouter implements MessageRouter {
  readonly nodeId: string;
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #keys: Keys;
  readonly #listeners = new Map<string, Set<(message: RoutedMessage) => void>>();
  readonly #onError: (error: Error) => void;
  readonly #liveness: NodeLiveness | undefined;

  constructor(publisher: Redis, subscriber: Redis, options: RedisMessageRouterOptions = {}) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    this.nodeId = options.nodeId ?? newNodeId();
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(this.nodeId))
      throw new TypeError(
        `nodeId must be 1-40 letters, digits, "_" or "-", got ${JSON.stringify(this.nodeId)}`,
      );
    this.#onError = options.onError ?? (() => {});
    this.#liveness = options.liveness;
    subscriber.on('message', (channel: string, payload: string) => this.#dispatch(channel, payload));
  }

  subscribe(sessionId: string, listener: (message: RoutedMessage) => void): () => void {
    const channel = this.#keys.sessionChannel(sessionId);
    let set = this.#listeners.get(channel);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(channel, set);
      this.#subscriber
        .subscribe(channel)
        .catch((error: unknown) => this.#onError(asError(explain(this.#subscriber, error))));
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.#listeners.get(channel) !== set) return;
      this.#listeners.delete(channel);
      this.#subscriber
        .unsubscribe(channel)
        .catch((error: unknown) => this.#onError(asError(explain(this.#subscriber, error))));
    };
  }

  async publish(sessionId: string, message: RoutedMessage): Promise<void> {
    const channel = this.#keys.sessionChannel(sessionId);
    await withinDeadline(this.#publisher, this.#publisher.publish(channel, JSON.stringify(message)));
  }

  /** Whether the process `nodeId` stopped for good (see NodeLiveness). */
  async isGone(nodeId: string): Promise<boolean> {
    return (await this.#liveness?.isGone(nodeId)) ?? false;
  }

  #dispatch(channel: string, payload: string): void {
    const set = this.#listeners.get(channel);
    if (set === undefined) return;
    let message: RoutedMessage;
    try {
      message = JSON.parse(payload) as RoutedMessage;
    } catch (error) {
      this.#onError(asError(error));
      return;
    }
    for (const listener of [...set]) listener(message);
  }
}

/** 10 random base-36 characters. */
export function newNodeId(): string {
  return BigInt(`0x${randomBytes(8).toString('hex')}`)
    .toString(36)
    .slice(0, 10);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
