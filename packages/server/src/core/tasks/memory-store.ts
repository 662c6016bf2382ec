/**
 * The default TaskStore: tasks in this process's memory, forgotten at their TTL (checked when read,
 * and by a sweep that runs at most once a second while tasks exist). One process runs every task it
 * holds, so a task's runner is alive as long as the store is. Each owner's finished tasks are kept
 * within the caps the server passes (`FinishedLimits`): by count and by the bytes of their JSON.
 */

import { expiresAt, isTerminal } from './model.js';
import type { FinishedLimits, StoredTask, TaskEviction, TaskPage, TaskRecord, TaskStore } from './types.js';

const SWEEP_MS = 1000;

/** Newest first; ties by id, so a cursor (the last task shown) marks a place even after others went. */
function newestFirst(
  a: { createdAt: number; taskId: string },
  b: { createdAt: number; taskId: string },
): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

/** The UTF-8 length of `text`, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * One owner's finished tasks: those holding their outcome, in the order they finished, with the size of
 * each; their total; and those whose outcome was dropped, oldest first.
 */
interface Kept {
  readonly sizes: Map<string, number>;
  bytes: number;
  readonly dropped: Set<string>;
}

export class MemoryTaskStore implements TaskStore {
  readonly nodeId = 'local';
  readonly #tasks = new Map<string, { task: StoredTask; version: number }>();
  readonly #kept = new Map<string, Kept>();
  readonly #listeners = new Set<(taskId: string) => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Tasks held now (expired ones included until the next sweep). */
  get size(): number {
    return this.#tasks.size;
  }

  create(task: StoredTask, limit: number): boolean {
    const now = Date.now();
    let active = 0;
    for (const entry of this.#tasks.values()) {
      const t = entry.task;
      if (t.owner === task.owner && !isTerminal(t.status) && expiresAt(t) > now) active++;
    }
    if (active >= limit) return false;
    this.#tasks.set(task.taskId, { task, version: 1 });
    this.#arm();
    return true;
  }

  read(taskId: string): TaskRecord | undefined {
    const entry = this.#live(taskId);
    return entry === undefined ? undefined : { task: entry.task, version: entry.version, runnerAlive: true };
  }

  write(task: StoredTask, version: number, keep?: FinishedLimits): boolean {
    const entry = this.#live(task.taskId);
    if (entry === undefined || entry.version !== version) return false;
    this.#tasks.set(task.taskId, { task, version: version + 1 });
    if (keep !== undefined && isTerminal(task.status) && !isTerminal(entry.task.status))
      this.#keep(task, keep);
    const id = task.taskId;
    // Told on a later turn, as a store shared over a network would.
    queueMicrotask(() => {
      for (const listener of [...this.#listeners]) listener(id);
    });
    return true;
  }

  list(owner: string, cursor: string | undefined, limit: number): TaskPage | undefined {
    const now = Date.now();
    const mine = [...this.#tasks.values()]
      .map((e) => e.task)
      .filter((t) => t.owner === owner && expiresAt(t) > now)
      .sort(newestFirst);
    let start = 0;
    if (cursor !== undefined) {
      const [at, id] = cursor.split('/');
      const mark = { createdAt: Number(at), taskId: id ?? '' };
      if (!/^\d+\/[A-Za-z0-9-]+$/.test(cursor)) return undefined;
      start = mine.findIndex((t) => newestFirst(t, mark) > 0);
      if (start < 0) start = mine.length;
    }
    const page = mine.slice(start, start + limit);
    const last = page.at(-1);
    return start + limit < mine.length && last !== undefined
      ? { tasks: page, nextCursor: `${last.createdAt}/${last.taskId}` }
      : { tasks: page };
  }

  subscribe(listener: (taskId: string) => void): () => void {
    const entry = (id: string): void => listener(id);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Keep `task`'s owner within `keep` now that `task` finished. */
  #keep(task: StoredTask, keep: FinishedLimits): void {
    let kept = this.#kept.get(task.owner);
    if (kept === undefined) {
      kept = { sizes: new Map(), bytes: 0, dropped: new Set() };
      this.#kept.set(task.owner, kept);
    }
    let size: number;
    try {
      size = utf8Length(JSON.stringify(task));
    } catch {
      size = Number.POSITIVE_INFINITY; // nothing a client could read: not kept
    }
    const byBytes: TaskEviction = { limit: 'maxFinishedBytesPerPrincipal', value: keep.maxBytes };
    if (size > keep.maxBytes) {
      this.#drop(kept, task.taskId, byBytes, keep);
      return;
    }
    kept.sizes.set(task.taskId, size);
    kept.bytes += size;
    const byCount: TaskEviction = { limit: 'maxFinishedTasksPerPrincipal', value: keep.maxTasks };
    while (kept.sizes.size > keep.maxTasks) this.#drop(kept, first(kept.sizes.keys()), byCount, keep);
    while (kept.bytes > keep.maxBytes) this.#drop(kept, first(kept.sizes.keys()), byBytes, keep);
  }

  /** Drop the outcome of `taskId` (it stays, marked), and forget the oldest dropped past `maxTasks`. */
  #drop(kept: Kept, taskId: string, why: TaskEviction, keep: FinishedLimits): void {
    const size = kept.sizes.get(taskId);
    if (size !== undefined) {
      kept.sizes.delete(taskId);
      kept.bytes -= size;
    }
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return;
    const { result: _result, error: _error, ...rest } = entry.task;
    this.#tasks.set(taskId, { task: { ...rest, evicted: why }, version: entry.version + 1 });
    kept.dropped.add(taskId);
    while (kept.dropped.size > keep.maxTasks) {
      const oldest = first(kept.dropped.values());
      kept.dropped.delete(oldest);
      this.#tasks.delete(oldest);
    }
  }

  /** `taskId` is gone (its TTL passed): it no longer counts for its owner. */
  #forget(task: StoredTask): void {
    const kept = this.#kept.get(task.owner);
    if (kept === undefined) return;
    const size = kept.sizes.get(task.taskId);
    if (size !== undefined) {
      kept.sizes.delete(task.taskId);
      kept.bytes -= size;
    }
    kept.dropped.delete(task.taskId);
    if (kept.sizes.size === 0 && kept.dropped.size === 0) this.#kept.delete(task.owner);
  }

  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#tasks.clear();
    this.#kept.clear();
    this.#listeners.clear();
  }

  #live(taskId: string): { task: StoredTask; version: number } | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (expiresAt(entry.task) > Date.now()) return entry;
    this.#tasks.delete(taskId);
    this.#forget(entry.task);
    return undefined;
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#sweep(), SWEEP_MS);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #sweep(): void {
    this.#timer = undefined;
    const now = Date.now();
    for (const [id, entry] of this.#tasks) {
      if (expiresAt(entry.task) > now) continue;
      this.#tasks.delete(id);
      this.#forget(entry.task);
    }
    if (this.#tasks.size > 0) this.#arm();
  }
}

/** The first of `items` (the caller knows there is one). */
function first(items: IterableIterator<string>): string {
  return items.next().value as string;
}
