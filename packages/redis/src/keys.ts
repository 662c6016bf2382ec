/**
 * The one place that builds Redis key and channel names. Every name is the configured prefix plus a
 * fixed kind plus an id that was checked against a strict alphabet first, so an id taken from a
 * request (a session id, a `Last-Event-ID`) can never name a key of another kind or another prefix.
 */

/** Ids we put into key names: letters, digits, `_`, `-` and `.`, at most 200 characters. */
const SAFE_ID = /^[A-Za-z0-9_.-]{1,200}$/;
/** Prefixes callers may configure: the same alphabet plus `:`, ending with `:`. */
const SAFE_PREFIX = /^[A-Za-z0-9_.:-]{0,64}:$/;

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}

export function checkPrefix(prefix: string): string {
  if (!SAFE_PREFIX.test(prefix)) {
    throw new TypeError(
      `Redis key prefix must be letters, digits, "_", "-", "." or ":" and end with ":", got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

export class Keys {
  constructor(readonly prefix: string) {
    checkPrefix(prefix);
  }

  /** The Redis stream holding one logical SSE stream's events. */
  eventStream(streamId: string): string {
    return this.#build('ev:', streamId);
  }

  /** One complete SSE stream, packed into a string for its retention window. */
  completeStream(streamId: string): string {
    return this.#build('evc:', streamId);
  }

  /** The set of event-stream ids of one session (the part of a stream id before its last dot). */
  eventStreamsOf(group: string): string {
    return this.#build('evs:', group);
  }

  /** The hash describing one legacy session. */
  session(sessionId: string): string {
    return this.#build('sess:', sessionId);
  }

  /** The key a running server process keeps alive. */
  node(nodeId: string): string {
    return this.#build('node:', nodeId);
  }

  /** The pub/sub channel of one session's messages. */
  sessionChannel(sessionId: string): string {
    return this.#build('chan:sess:', sessionId);
  }

  /** The hash holding one task (its JSON, version and the node running it). */
  task(taskId: string): string {
    return this.#build('task:', taskId);
  }

  /** What a task key starts with (for scripts that build it from an id they read). */
  get taskPrefix(): string {
    return `${this.prefix}task:`;
  }

  /** The sorted set of an owner's tasks, by creation time (`owner` is a digest). */
  tasksOf(owner: string): string {
    return this.#build('tasks-of:', owner);
  }

  /** The sorted set of an owner's unfinished tasks, by expiry time (`owner` is a digest). */
  activeTasksOf(owner: string): string {
    return this.#build('tasks-active:', owner);
  }

  /** The sorted set of all an owner's tasks, by expiry time, for dropping the expired from its other sets. */
  expiringTasksOf(owner: string): string {
    return this.#build('tasks-exp:', owner);
  }

  /** The sorted set of an owner's finished tasks that keep their outcome, in the order they finished. */
  finishedTasksOf(owner: string): string {
    return this.#build('tasks-done:', owner);
  }

  /** The hash of the sizes of an owner's finished tasks (by id; `=` their total, `#` a sequence). */
  finishedSizesOf(owner: string): string {
    return this.#build('tasks-size:', owner);
  }

  /** The sorted set of an owner's finished tasks whose outcome was dropped, in the order it was. */
  droppedTasksOf(owner: string): string {
    return this.#build('tasks-dropped:', owner);
  }

  /** The hash of one rate-limit bucket (`bucket` is a digest of the caller and the rule's scope). */
  rateBucket(bucket: string): string {
    return this.#build('rate:', bucket);
  }

  /** What a node key starts with (for scripts that build it from an id they read). */
  get nodePrefix(): string {
    return `${this.prefix}node:`;
  }

  /** The pub/sub channel naming each task that changed. */
  get taskChannel(): string {
    return `${this.prefix}chan:tasks`;
  }

  /** The pub/sub channel of subscription events (2026-07-28 list changes, resource updates). */
  get subscriptionChannel(): string {
    return `${this.prefix}chan:subscriptions`;
  }

  #build(kind: string, id: string): string {
    if (!isSafeId(id)) throw new TypeError(`Unsafe id for a Redis key: ${JSON.stringify(id.slice(0, 80))}`);
    return `${this.prefix}${kind}${id}`;
  }
}
