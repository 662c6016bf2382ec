// One pub/sub channel heard on the shared subscriber connection, and this process's listeners of it: the one place
// that subscribes to a channel, decodes its messages and hands each to every listener.
import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';

export interface ChannelListenersOptions<T> {
  /** The message as listeners see it, or undefined for one to drop (reported through `onError`). */
  readonly decode: (payload: string) => T | undefined;
  /** A failed subscription, or a message `decode` refused. */
  readonly onError: (error: Error) => void;
}

export class ChannelListeners<T> {
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #options: ChannelListenersOptions<T>;
  readonly #listeners = new Set<(value: T) => void>();
  #subscribed: Promise<unknown> | undefined;

  /** `subscriber` is a connection in subscriber mode, shared with other channels' listeners. */
  constructor(subscriber: Redis, channel: string, options: ChannelListenersOptions<T>) {
    this.#subscriber = subscriber;
    this.#channel = channel;
    this.#options = options;
    subscriber.on('message', (from: string, payload: string) => {
      if (from === channel) this.#dispatch(payload);
    });
  }

  /** Resolves once the channel subscription is in place (messages published before may be missed). */
  ready(): Promise<unknown> {
    this.#subscribed ??= withinDeadline(this.#subscriber, this.#subscriber.subscribe(this.#channel));
    return this.#subscribed;
  }

  /**
   * Hands `listener` every message from now on; subscribes the channel if that is not done yet. A failed
   * subscription is reported through `onError` and tried again by the next call. Returns the unsubscriber.
   */
  subscribe(listener: (value: T) => void): () => void {
    const entry = (value: T): void => listener(value);
    this.#listeners.add(entry);
    this.ready().catch((error: unknown) => {
      this.#subscribed = undefined;
      this.#options.onError(error instanceof Error ? error : new Error(String(error)));
    });
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Drops every listener (the channel stays subscribed on the shared connection). */
  clear(): void {
    this.#listeners.clear();
  }

  #dispatch(payload: string): void {
    const value = this.#options.decode(payload);
    if (value === undefined) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch {
        // A listener that throws loses this message; the others still get it.
      }
    }
  }
}
