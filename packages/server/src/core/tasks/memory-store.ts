/**
 * The default TaskStore: tasks in this process's memory, forgotten at their TTL (checked when read,
 * and by a sweep that runs at most once a second while tasks exist). One process runs every task it
 * holds, so a task's runner is alive as long as the store is.
 */

import { expiresAt, isTerminal } from './model.js';
import type { StoredTask, TaskPage, TaskRecord, TaskStore } from './types.js';

const SWEEP_MS = 1000;

/** Newest first; ties by id, so a cursor (the last task shown) marks a place even after others went. */
function newestFirst(
  a: { createdAt: number; taskId: string },
  b: { createdAt: number; taskId: string },
): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

export class MemoryTaskStore implements TaskStore {
  readonly nodeId = 'local';
  readonly #tasks = new Map<string, { task: StoredTask; version: number }>();
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

  write(task: StoredTask, version: number): boolean {
    const entry = this.#live(task.taskId);
    if (entry === undefined || entry.version !== version) return false;
    this.#tasks.set(task.taskId, { task, version: version + 1 });
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

  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#tasks.clear();
    this.#listeners.clear();
  }

  #live(taskId: string): { task: StoredTask; version: number } | undefined {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (expiresAt(entry.task) > Date.now()) return entry;
    this.#tasks.delete(taskId);
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
    for (const [id, entry] of this.#tasks) if (expiresAt(entry.task) <= now) this.#tasks.delete(id);
    if (this.#tasks.size > 0) this.#arm();
  }
}
