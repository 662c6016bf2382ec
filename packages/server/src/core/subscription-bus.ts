/**
 * The subscription bus: how change events reach `subscriptions/listen` streams (protocol
 * 2026-07-28). The server publishes every change on its bus and each listen stream subscribes to
 * it, so a bus shared by several processes (pub/sub in a store) makes a change made in one
 * process reach listeners held by another. The in-memory bus is the default.
 */

/** One change a listener may opt in to (the `notifications` filter of `subscriptions/listen`). */
export type SubscriptionEvent =
  | { readonly type: 'toolsListChanged' }
  | { readonly type: 'promptsListChanged' }
  | { readonly type: 'resourcesListChanged' }
  | { readonly type: 'resourceUpdated'; readonly uri: string };

export type SubscriptionListener = (event: SubscriptionEvent) => void;

/**
 * What a bus must do. Events are plain JSON values, so an implementation may carry them over a
 * network. Delivery is at most once and in order per publisher; a listener must not throw.
 */
export interface SubscriptionBus {
  /** Deliver `event` to every current listener (of every process sharing the bus). */
  publish(event: SubscriptionEvent): void | Promise<void>;
  /** Start receiving events; the returned function stops it (calling it twice is harmless). */
  subscribe(listener: SubscriptionListener): () => void;
  /** Release what the bus holds; called by `McpServer.close()` for a bus the server created. */
  close?(): void | Promise<void>;
}

/** The default bus: listeners in this process only, called synchronously in subscription order. */
export class InMemorySubscriptionBus implements SubscriptionBus {
  readonly #listeners = new Set<SubscriptionListener>();

  /** Listeners currently subscribed. */
  get size(): number {
    return this.#listeners.size;
  }

  publish(event: SubscriptionEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener that throws loses this event; the others still get it.
      }
    }
  }

  subscribe(listener: SubscriptionListener): () => void {
    // A wrapper per subscription, so one function subscribed twice is two listeners.
    const entry: SubscriptionListener = (event) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  close(): void {
    this.#listeners.clear();
  }
}

const EVENT_TYPES = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged']);

/** Whether a value received from outside (e.g. over the network) is a well-formed event. */
export function isSubscriptionEvent(value: unknown): value is SubscriptionEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { type, uri } = value as { type?: unknown; uri?: unknown };
  if (type === 'resourceUpdated') return typeof uri === 'string';
  return typeof type === 'string' && EVENT_TYPES.has(type);
}
