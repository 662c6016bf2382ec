/**
 * The server's SubscriptionBus (2026-07-28 `subscriptions/listen`) on Redis pub/sub: one channel per
 * deployment; a change published by any process reaches the listen streams of every process. Events
 * from the channel are checked with the server's own `isSubscriptionEvent` before any listener sees
 * them. Delivery is at most once, as pub/sub is: a process cut off from Redis misses what was
 * published meanwhile.
 */

import { isSubscriptionEvent, type SubscriptionBus, type SubscriptionEvent } from '@entropic-mcp/server';
import type { Redis } from 'ioredis';
import { ChannelListeners } from './channel-listeners.js';
import { withinDeadline } from './connect.js';
import { Keys } from './keys.js';

type Listener = (event: SubscriptionEvent) => void;

export class RedisSubscriptionBus implements SubscriptionBus {
  readonly #publisher: Redis;
  readonly #channel: string;
  readonly #listeners: ChannelListeners<SubscriptionEvent>;

  constructor(
    publisher: Redis,
    subscriber: Redis,
    options: { readonly keyPrefix?: string; readonly onError?: (error: Error) => void } = {},
  ) {
    this.#publisher = publisher;
    this.#channel = new Keys(options.keyPrefix ?? 'emcp:').subscriptionChannel;
    const onError = options.onError ?? (() => {});
    this.#listeners = new ChannelListeners(subscriber, this.#channel, {
      decode: (payload) => {
        const event = parseEvent(payload);
        if (event === undefined) {
          onError(new Error(`Ignored a malformed subscription event: ${payload.slice(0, 200)}`));
        }
        return event;
      },
      onError,
    });
  }

  /** Resolves once the channel subscription is in place (events published before may be missed). */
  ready(): Promise<unknown> {
    return this.#listeners.ready();
  }

  async publish(event: SubscriptionEvent): Promise<void> {
    await withinDeadline(this.#publisher, this.#publisher.publish(this.#channel, JSON.stringify(event)));
  }

  subscribe(listener: Listener): () => void {
    return this.#listeners.subscribe(listener);
  }

  close(): void {
    this.#listeners.clear();
  }
}

/** The event a message carries, checked with the server's own rule; undefined when it is not one. */
function parseEvent(payload: string): SubscriptionEvent | undefined {
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    return undefined;
  }
  return isSubscriptionEvent(event) ? event : undefined;
}
