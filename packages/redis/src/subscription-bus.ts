/**
 * The server's SubscriptionBus (2026-07-28 `subscriptions/listen`) on Redis pub/sub: one channel per
 * deployment; a change published by any process reaches the listen streams of every process. Events
 * from the channel are checked with the server's own `isSubscriptionEvent` before any listener sees
 * them. Delivery is at most once, as pub/sub is: a process cut off from Redis misses what was
 * published meanwhile.
 */

import { isSubscriptionEvent, type SubscriptionBus, type SubscriptionEvent } from '@entropic-mcp/server';
import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';
import { Keys } from './keys.js';

type Listener = (event: SubscriptionEvent) => void;

export class RedisSubscriptionBus implements SubscriptionBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #listeners = new Set<Listener>();
  readonly #onError: (error: Error) => void;
  #subscribed: Promise<unknown> | undefined;

  constructor(
    publisher: Redis,
    subscriber: Redis,
    options: { readonly keyPrefix?: string; readonly onError?: (error: Error) => void } = {},
  ) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#channel = new Keys(options.keyPrefix ?? 'emcp:').subscriptionChannel;
    this.#onError = options.onError ?? (() => {});
    subscriber.on('message', (channel: string, payload: string) => {
      if (channel === this.#channel) this.#dispatch(payload);
    });
  }

  /** Resolves once the channel subscription is in place (events published before may be missed). */
  ready(): Promise<unknown> {
    this.#subscribed ??= withinDeadline(this.#subscriber, this.#subscriber.subscribe(this.#channel));
    return this.#subscribed;
  }

  async publish(event: SubscriptionEvent): Promise<void> {
    await withinDeadline(this.#publisher, this.#publisher.publish(this.#channel, JSON.stringify(event)));
  }

  subscribe(listener: Listener): () => void {
    const entry: Listener = (event) => listener(event);
    this.#listeners.add(entry);
    this.ready().catch((error: unknown) => {
      this.#subscribed = undefined;
      this.#onError(error instanceof Error ? error : new Error(String(error)));
    });
    return () => {
      this.#listeners.delete(entry);
    };
  }

  close(): void {
    this.#listeners.clear();
  }

  #dispatch(payload: string): void {
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      event = undefined;
    }
    if (!isSubscriptionEvent(event)) {
      this.#onError(new Error(`Ignored a malformed subscription event: ${payload.slice(0, 200)}`));
      return;
    }
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener that throws loses this event; the others still get it.
      }
    }
  }
}
