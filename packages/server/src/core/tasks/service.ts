/**
 * The tasks of one server: new tasks (ids, TTL, limits), reading one for a caller (another caller's
 * task is not found), changing one by compare-and-set over the store (the state machine is
 * model.ts), noticing one whose process died (it reads `failed`, saying so), and waking whoever
 * watches a task in this process when any process changed it.
 */

import { ErrorCode, McpError } from '../errors.js';
import type { Era } from '../handler-types.js';
import { MemoryTaskStore } from './memory-store.js';
import { advance, isTerminal, type TaskChange } from './model.js';
import { ownedByConnection } from './scope.js';
import type {
  FinishedLimits,
  ResolvedTaskOptions,
  StoredTask,
  TaskOptions,
  TaskRecord,
  TaskStore,
} from './types.js';

/**
 * 2026-07-28: how long a call of a task-capable tool may run before it is answered with a task. Most tool
 * calls end well within a second; a task costs the client at least one poll (`pollIntervalMs`, 500).
 */
const DEFAULT_SYNC_WINDOW_MS = 1000;

/** Compare-and-set attempts before a change gives up (only under heavy contention on one task). */
const MAX_ATTEMPTS = 50;

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new TypeError(
      `ServerOptions.tasks.${name} must be ${allowZero ? 'a non-negative' : 'a positive'} integer`,
    );
  }
  return value;
}

export function resolveTaskOptions(options: TaskOptions | undefined): ResolvedTaskOptions {
  const o = options ?? {};
  const defaultTtlMs = positive('defaultTtlMs', o.defaultTtlMs, 3_600_000);
  const maxTtlMs = positive('maxTtlMs', o.maxTtlMs, Math.max(86_400_000, defaultTtlMs));
  if (defaultTtlMs > maxTtlMs)
    throw new TypeError('ServerOptions.tasks.defaultTtlMs must not exceed maxTtlMs');
  return {
    store: o.store,
    maxTasksPerPrincipal: positive('maxTasksPerPrincipal', o.maxTasksPerPrincipal, 16),
    maxFinishedTasksPerPrincipal: positive(
      'maxFinishedTasksPerPrincipal',
      o.maxFinishedTasksPerPrincipal,
      256,
    ),
    maxFinishedBytesPerPrincipal: positive(
      'maxFinishedBytesPerPrincipal',
      o.maxFinishedBytesPerPrincipal,
      32 << 20,
    ),
    defaultTtlMs,
    maxTtlMs,
    pollIntervalMs: positive('pollIntervalMs', o.pollIntervalMs, 500),
    syncWindowMs: positive('syncWindowMs', o.syncWindowMs, DEFAULT_SYNC_WINDOW_MS, true),
  };
}

/** What the server needs of a task it runs (`TaskRun`). */
export interface RunningTask {
  readonly owner: string;
  readonly origin: unknown;
  shutdown(): Promise<void>;
  abandon(): void;
}

export function notFound(taskId: unknown): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Failed to retrieve task: Task not found (${JSON.stringify(taskId)})`,
    {
      taskId,
    },
  );
}

/**
 * The answer for a task whose outcome its store dropped to keep the owner within a cap (`tasks/result`,
 * 2026-07-28 `tasks/get`): -32602 naming the cap and its option.
 */
export function evictedError(task: StoredTask): McpError | undefined {
  const evicted = task.evicted;
  if (evicted === undefined) return undefined;
  const kept =
    evicted.limit === 'maxFinishedTasksPerPrincipal'
      ? `the outcomes of ${evicted.value} finished tasks`
      : `${evicted.value} bytes of finished tasks (one heavier than that on its own is not kept)`;
  return new McpError(
    ErrorCode.InvalidParams,
    `Task ${task.taskId} is ${task.status}, but its outcome is no longer kept: this caller may keep ${kept} (tasks.${evicted.limit}), and the outcomes of those that finished first are dropped. Fetch results sooner, or raise the option`,
    { taskId: task.taskId, status: task.status, evicted },
  );
}

export class Tasks {
  readonly store: TaskStore;
  readonly #keep: FinishedLimits;
  readonly #ownStore: boolean;
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #stop: () => void;
  /** The tasks this process runs. */
  readonly running = new Set<RunningTask>();

  /**
   * `clock`: the time every process sharing the store agrees on (ServerOptions.clock): when a task was
   * made and changed, and so when it ends.
   */
  constructor(
    readonly options: ResolvedTaskOptions,
    readonly clock: () => number = Date.now,
  ) {
    this.#keep = {
      maxTasks: options.maxFinishedTasksPerPrincipal,
      maxBytes: options.maxFinishedBytesPerPrincipal,
    };
    this.#ownStore = options.store === undefined;
    this.store = options.store ?? new MemoryTaskStore();
    this.#stop = this.store.subscribe((taskId) => {
      const set = this.#watchers.get(taskId);
      if (set !== undefined) for (const fn of [...set]) fn();
    });
  }

  /** Call `fn` whenever task `taskId` changes, in any process; returns the stop. */
  watch(taskId: string, fn: () => void): () => void {
    let set = this.#watchers.get(taskId);
    if (set === undefined) {
      set = new Set();
      this.#watchers.set(taskId, set);
    }
    const entry = (): void => fn();
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.#watchers.get(taskId) === set) this.#watchers.delete(taskId);
    };
  }

  /** A new task of `owner`, not yet stored; `requestedTtlMs` is capped at `maxTtlMs`. */
  newTask(owner: string, era: Era, requestedTtlMs: number | undefined): StoredTask {
    const now = this.clock();
    const o = this.options;
    return {
      taskId: crypto.randomUUID(),
      owner,
      status: 'working',
      createdAt: now,
      updatedAt: now,
      ttlMs: Math.min(requestedTtlMs ?? o.defaultTtlMs, o.maxTtlMs),
      pollIntervalMs: o.pollIntervalMs,
      node: this.store.nodeId,
      era,
    };
  }

  /** -32000 when the owner already has as many tasks running as allowed. */
  limitReached(): McpError {
    const limit = this.options.maxTasksPerPrincipal;
    return new McpError(
      ErrorCode.ServerBusy,
      `Too many tasks: this caller already has ${limit} tasks running (tasks.maxTasksPerPrincipal); wait for one to finish or cancel one`,
      { limit },
    );
  }

  /**
   * The task as stored, at once. One whose process shows no sign of life is marked failed, so nobody
   * waits forever: when the store can confirm that the process is gone (`runnerGone`), the confirmation
   * runs in the background and this read answers with the task as it is; otherwise it is marked first.
   */
  async read(taskId: string): Promise<TaskRecord | undefined> {
    const record = await this.store.read(taskId);
    if (record === undefined || record.runnerAlive || isTerminal(record.task.status)) return record;
    const node = record.task.node;
    if (this.store.runnerGone === undefined) {
      await this.#failOrphan(taskId, node);
      return this.store.read(taskId);
    }
    if (!this.#confirming.has(taskId)) {
      this.#confirming.add(taskId);
      this.store
        .runnerGone(node)
        .then((gone) => (gone ? this.#failOrphan(taskId, node) : undefined))
        .catch(() => undefined)
        .finally(() => this.#confirming.delete(taskId));
    }
    return record;
  }

  /** Tasks whose process is being confirmed gone (one confirmation each at a time). */
  readonly #confirming = new Set<string>();

  async #failOrphan(taskId: string, node: string): Promise<void> {
    const message = `the process running this task (node ${node}) stopped before the task finished`;
    await this.change(taskId, {
      type: 'finish',
      status: 'failed',
      error: { code: ErrorCode.InternalError, message: `Task failed: ${message}` },
      statusMessage: `Task failed: ${message}`,
    });
  }

  /** The task `taskId` of `owner`: -32602 "not found" for an unknown, expired or another owner's task. */
  async find(taskId: unknown, owner: string): Promise<StoredTask> {
    if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > 200) throw notFound(taskId);
    const record = await this.read(taskId);
    if (record === undefined || record.task.owner !== owner) throw notFound(taskId);
    return record.task;
  }

  /**
   * Apply `change` (compare-and-set, retried when another write came first). Resolves with the task
   * after it (unchanged when the change did not apply), or undefined when the task is gone.
   */
  async change(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const record = await this.store.read(taskId);
      if (record === undefined) return undefined;
      const next = advance(record.task, change, this.clock());
      if (next === undefined) return record.task;
      if (await this.store.write(next, record.version, this.#keep)) return next;
    }
    throw new McpError(
      ErrorCode.InternalError,
      `Internal error: task ${taskId} kept changing; the update was not applied`,
    );
  }

  /** A connection closed: the tasks it owned are cancelled (nobody could ever ask for them again). */
  connectionClosed(connection: unknown): void {
    for (const run of [...this.running]) {
      if (run.origin === connection && ownedByConnection(run.owner)) run.abandon();
    }
  }

  /**
   * Every task this process runs fails, saying the server shut down (written to the store before its
   * handler is stopped). Resolves with how many there were, once every outcome is written.
   */
  async endAll(): Promise<number> {
    const runs = [...this.running];
    await Promise.all(runs.map((run) => run.shutdown()));
    return runs.length;
  }

  /** End every task this process runs (the server is closing), then let the store go. */
  async close(): Promise<void> {
    await this.endAll();
    this.#stop();
    if (this.#ownStore) await this.store.close?.();
  }
}
