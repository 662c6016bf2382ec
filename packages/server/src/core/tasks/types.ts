/**
 * The one task model under both eras (2025-11-25 in-core tasks, the 2026-07-28 tasks extension): a
 * stored task as plain JSON, the `TaskStore` interface every process shares, and the options.
 */

import type { WireError } from '../errors.js';
import type { Era, InputRequest } from '../handler-types.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export type { TaskSupport } from '../types.js';

/** One task as every process stores and reads it: plain JSON, times in epoch milliseconds. */
export interface StoredTask {
  readonly taskId: string;
  /**
   * Who may see it: `p:<principal>` (authenticated HTTP), `s:<session id>` (a 2025 HTTP session),
   * `c:<connection key>` (stdio, in memory), `a:<client address>` (unauthenticated HTTP without a
   * session) or `anonymous` (the same where no address is known: whoever holds the unguessable id).
   */
  readonly owner: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The task is forgotten `ttlMs` after `createdAt`. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The store's id of the process running the handler. */
  readonly node: string;
  /** The era of the request that created it. */
  readonly era: Era;
  /** 2026-07-28: questions waiting for `tasks/update`, by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** 2026-07-28: answers `tasks/update` delivered, by key, for the handler to pick up. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** `completed`: the result of the request (a tool result; `isError` ones too). */
  readonly result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error the request ended with. */
  readonly error?: WireError;
  /**
   * A finished task whose result or error the store dropped to keep its owner within a cap: which cap,
   * and its value. The task keeps its status; `tasks/result` (and 2026-07-28 `tasks/get`) answer an
   * error naming the cap.
   */
  readonly evicted?: TaskEviction;
}

/** Why a store dropped a finished task's outcome: the option whose cap it kept, and that cap. */
export interface TaskEviction {
  readonly limit: 'maxFinishedTasksPerPrincipal' | 'maxFinishedBytesPerPrincipal';
  readonly value: number;
}

/**
 * How much of its owner's finished tasks (completed, failed, cancelled) a store keeps: at most `maxTasks`
 * with their outcome, whose stored JSON weighs at most `maxBytes` (UTF-8) in all. Past either cap the
 * outcome of the owner's task that finished first is dropped (the task stays, marked `evicted`); a task
 * heavier than `maxBytes` on its own loses its outcome at once. At most `maxTasks` tasks so dropped are
 * remembered per owner; older ones are forgotten (then "not found").
 */
export interface FinishedLimits {
  readonly maxTasks: number;
  readonly maxBytes: number;
}

/** A task as read, with what a writer needs to replace it safely. */
export interface TaskRecord {
  readonly task: StoredTask;
  /** Changes with every write (compare-and-set). */
  readonly version: number;
  /**
   * False when the process running the task shows no sign of life (no heartbeat). With `runnerGone`
   * this is a suspicion the server confirms in the background; without it, the task can never finish.
   */
  readonly runnerAlive: boolean;
}

export interface TaskPage {
  readonly tasks: StoredTask[];
  readonly nextCursor?: string;
}

type Awaitable<T> = T | PromiseLike<T>;

/**
 * Where tasks live: in this process by default (`MemoryTaskStore`), or shared by every process
 * behind one endpoint (`RedisTaskStore` of `@entropic-mcp/redis`). The server decides every change
 * (the state machine is in the core); a store keeps tasks until their TTL, replaces them only if
 * nobody wrote in between, tells every process when one changed, and knows whether the process
 * running a task is still alive.
 */
export interface TaskStore {
  /** This process's id as the store knows it (written into the tasks it runs). */
  readonly nodeId: string;
  /**
   * Store a new task unless its owner already has `limit` tasks that are neither finished nor
   * expired (then false). Resolves once any process can read it.
   */
  create(task: StoredTask, limit: number): Awaitable<boolean>;
  /** The task, or undefined when unknown or expired. */
  read(taskId: string): Awaitable<TaskRecord | undefined>;
  /**
   * Replace the task if its version is still `version` (false when another write came first or the
   * task is gone); a successful write tells every subscriber, in every process sharing the store. A
   * write that finishes the task keeps its owner within `keep` (the server always passes it).
   */
  write(task: StoredTask, version: number, keep?: FinishedLimits): Awaitable<boolean>;
  /**
   * The owner's tasks, newest first: at most `limit` after `cursor`; undefined when `cursor` is not a
   * value this store handed out.
   */
  list(owner: string, cursor: string | undefined, limit: number): Awaitable<TaskPage | undefined>;
  /**
   * Confirm, by the store's own rule, that the process `node` stopped for good (it may take a while:
   * a heartbeat missed once can be a stall). Optional: without it a record read with `runnerAlive`
   * false is taken as final at once.
   */
  runnerGone?(node: string): Promise<boolean>;
  /** Be told the id of every task that changed (at most once each; readers also poll). */
  subscribe(listener: (taskId: string) => void): () => void;
  /** Release what the store holds (called by `server.close()` for a store the server made). */
  close?(): Awaitable<void>;
}

export interface TaskOptions {
  /** Where tasks live. Default: a `MemoryTaskStore` of this server. */
  store?: TaskStore;
  /** Tasks one principal (or session, or connection) may have running at once. Default 16. */
  maxTasksPerPrincipal?: number;
  /**
   * Finished tasks (completed, failed, cancelled) one owner may have kept with their outcome at once;
   * past it, the outcome of the one that finished first is dropped (see `FinishedLimits`). Default 256.
   */
  maxFinishedTasksPerPrincipal?: number;
  /**
   * Bytes (the stored JSON, UTF-8) of one owner's finished tasks kept at once; past it, the outcomes of
   * those that finished first are dropped, and a result heavier than this on its own is not kept.
   * Default 33,554,432 (32 MiB).
   */
  maxFinishedBytesPerPrincipal?: number;
  /** How long a task (and its result) is kept when the client asks for no TTL. Default 3,600,000 (1 h). */
  defaultTtlMs?: number;
  /** The longest TTL granted; a 2025 client asking for more gets this. Default 86,400,000 (24 h). */
  maxTtlMs?: number;
  /** The polling interval suggested to clients. Default 500. */
  pollIntervalMs?: number;
  /**
   * 2026-07-28: a call to a task-supporting tool still running after this long is answered with a
   * task; one that finishes sooner gets its result directly. Default 1000 (a quick call of a
   * task-capable tool is answered as any call, not turned into a task to poll); 0 makes every call
   * that does not answer within the turn it started in a task. A question for the client asked
   * within the window ends the round with input_required; one asked after it finds the task.
   */
  syncWindowMs?: number;
}

export interface ResolvedTaskOptions {
  readonly store: TaskStore | undefined;
  readonly maxTasksPerPrincipal: number;
  readonly maxFinishedTasksPerPrincipal: number;
  readonly maxFinishedBytesPerPrincipal: number;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly syncWindowMs: number;
}
