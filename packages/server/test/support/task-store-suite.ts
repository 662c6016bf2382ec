/**
 * The behaviour every TaskStore must have, as one suite: the in-memory store runs it in the server's
 * tests and `@entropic-mcp/redis` runs it against a real Redis. Results are awaited, so a store may
 * answer synchronously or with promises.
 */

import { waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import type { FinishedLimits, StoredTask, TaskStore } from '../../src/core/tasks/types.js';

export interface TaskStoreSuiteOptions {
  /** A fresh, empty store. */
  make(): TaskStore | Promise<TaskStore>;
}

let counter = 0;

/** A working task of `owner`, created now, kept `ttlMs`. */
export function storedTask(
  owner: string,
  nodeId: string,
  ttlMs = 60_000,
  createdAt = Date.now(),
): StoredTask {
  return {
    taskId: `task-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 10)}`,
    owner,
    status: 'working',
    createdAt,
    updatedAt: createdAt,
    ttlMs,
    pollIntervalMs: 500,
    node: nodeId,
    era: 'modern',
  };
}

/** Finish `task` (as read now) with a text result, keeping its owner within `keep`. */
async function complete(
  store: TaskStore,
  task: StoredTask,
  text: string,
  keep: FinishedLimits,
): Promise<void> {
  const record = await store.read(task.taskId);
  const done: StoredTask = {
    ...task,
    status: 'completed',
    updatedAt: task.updatedAt + 1,
    result: { content: [{ type: 'text', text }] },
  };
  expect(await store.write(done, record?.version as number, keep)).toBe(true);
}

/** `count` working tasks of `owner`, stored, created one millisecond apart. */
async function made(store: TaskStore, owner: string, count: number): Promise<StoredTask[]> {
  const now = Date.now();
  const tasks = Array.from({ length: count }, (_, i) => storedTask(owner, store.nodeId, 60_000, now + i));
  for (const task of tasks) expect(await store.create(task, 100)).toBe(true);
  return tasks;
}

export function taskStoreSuite(name: string, { make }: TaskStoreSuiteOptions): void {
  describe(`${name} (TaskStore behaviour)`, () => {
    it('stores a task for any reader, and replaces it only at the version it was read at', async () => {
      const store = await make();
      const task = storedTask('p:alice', store.nodeId);
      expect(await store.create(task, 4)).toBe(true);
      const read = await store.read(task.taskId);
      expect(read).toMatchObject({ task, runnerAlive: true });
      const version = read?.version as number;
      const next = { ...task, statusMessage: 'half way', updatedAt: task.updatedAt + 1 };
      expect(await store.write(next, version)).toBe(true);
      expect(await store.write({ ...task, statusMessage: 'stale' }, version)).toBe(false);
      expect((await store.read(task.taskId))?.task.statusMessage).toBe('half way');
      expect(await store.read('no-such-task')).toBeUndefined();
      expect(await store.write(storedTask('p:alice', store.nodeId), 1)).toBe(false);
      await store.close?.();
    });

    it('keeps each owner under its limit of unfinished tasks', async () => {
      const store = await make();
      const a = storedTask('p:limit-a', store.nodeId);
      expect(await store.create(a, 2)).toBe(true);
      expect(await store.create(storedTask('p:limit-a', store.nodeId), 2)).toBe(true);
      expect(await store.create(storedTask('p:limit-a', store.nodeId), 2)).toBe(false);
      expect(await store.create(storedTask('p:limit-b', store.nodeId), 2)).toBe(true);
      const record = await store.read(a.taskId);
      expect(
        await store.write(
          { ...a, status: 'completed', updatedAt: a.updatedAt + 1 },
          record?.version as number,
        ),
      ).toBe(true);
      expect(await store.create(storedTask('p:limit-a', store.nodeId), 2)).toBe(true);
      await store.close?.();
    });

    it('forgets a task at its TTL', async () => {
      const store = await make();
      const task = storedTask('p:ttl', store.nodeId, 500);
      await store.create(task, 4);
      expect(await store.read(task.taskId)).toBeDefined();
      await waitFor(
        async () => (await store.read(task.taskId)) === undefined,
        'the task forgotten at its TTL',
      );
      // An expired task no longer counts against its owner's limit.
      expect(await store.create(storedTask('p:ttl', store.nodeId), 1)).toBe(true);
      await store.close?.();
    });

    it("lists an owner's tasks newest first, a page at a time, and nobody else's", async () => {
      const store = await make();
      const now = Date.now();
      const mine = [0, 1, 2, 3, 4].map((i) => storedTask('s:lister', store.nodeId, 60_000, now + i));
      for (const task of mine) await store.create(task, 10);
      await store.create(storedTask('s:other', store.nodeId), 10);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 5; pages++) {
        const page = await store.list('s:lister', cursor, 2);
        expect(page).toBeDefined();
        seen.push(...(page?.tasks ?? []).map((t) => t.taskId));
        cursor = page?.nextCursor;
        if (cursor === undefined) break;
      }
      expect(seen).toEqual(mine.map((t) => t.taskId).reverse());
      expect(await store.list('s:lister', 'not-a-cursor', 2)).toBeUndefined();
      expect((await store.list('s:nobody', undefined, 2))?.tasks).toEqual([]);
      await store.close?.();
    });

    it('keeps at most maxTasks finished outcomes per owner, dropping those of the tasks that finished first', async () => {
      const store = await make();
      const keep = { maxTasks: 2, maxBytes: 1 << 20 };
      const [other] = await made(store, 'p:keep-other', 1);
      await complete(store, other as StoredTask, 'theirs', keep);
      const mine = await made(store, 'p:keep-count', 4);
      for (const [i, task] of mine.entries()) await complete(store, task, `result ${i}`, keep);
      const read = await Promise.all(mine.map(async (t) => (await store.read(t.taskId))?.task));
      for (const dropped of read.slice(0, 2)) {
        expect(dropped).toMatchObject({
          status: 'completed',
          evicted: { limit: 'maxFinishedTasksPerPrincipal', value: 2 },
        });
        expect(dropped?.result).toBeUndefined();
      }
      expect(read.slice(2).map((t) => [t?.result, t?.evicted])).toEqual([
        [{ content: [{ type: 'text', text: 'result 2' }] }, undefined],
        [{ content: [{ type: 'text', text: 'result 3' }] }, undefined],
      ]);
      expect((await store.read((other as StoredTask).taskId))?.task.result).toBeDefined();
      await store.close?.();
    });

    it('keeps at most maxBytes (UTF-8) of finished tasks per owner; one heavier on its own keeps no outcome', async () => {
      const store = await make();
      const keep = { maxTasks: 100, maxBytes: 4000 };
      const size = (task: StoredTask | undefined) => Buffer.byteLength(JSON.stringify(task));
      const mine = await made(store, 'p:keep-bytes', 4);
      // 800 characters of two bytes each: about 1,850 bytes a task, two fit and three do not (as
      // characters, three would).
      for (const task of mine.slice(0, 3)) await complete(store, task, 'é'.repeat(800), keep);
      await complete(store, mine[3] as StoredTask, 'x'.repeat(5000), keep);
      const read = await Promise.all(mine.map(async (t) => (await store.read(t.taskId))?.task));
      expect(read.map((t) => t?.evicted?.limit)).toEqual([
        'maxFinishedBytesPerPrincipal',
        undefined,
        undefined,
        'maxFinishedBytesPerPrincipal',
      ]);
      expect(read[3]?.result).toBeUndefined();
      expect(size(read[1]) + size(read[2])).toBeLessThanOrEqual(4000);
      await store.close?.();
    });

    it('remembers at most maxTasks tasks whose outcome it dropped, per owner; older ones are forgotten', async () => {
      const store = await make();
      const keep = { maxTasks: 2, maxBytes: 1 << 20 };
      const mine = await made(store, 'p:keep-forget', 8);
      for (const task of mine) await complete(store, task, 'done', keep);
      const read = await Promise.all(mine.map(async (t) => (await store.read(t.taskId))?.task));
      expect(
        read.map((t) => (t === undefined ? 'forgotten' : t.evicted === undefined ? 'kept' : 'dropped')),
      ).toEqual(['forgotten', 'forgotten', 'forgotten', 'forgotten', 'dropped', 'dropped', 'kept', 'kept']);
      expect((await store.list('p:keep-forget', undefined, 50))?.tasks).toHaveLength(4);
      await store.close?.();
    });

    it('tells subscribers which task changed', async () => {
      const store = await make();
      const changed: string[] = [];
      const stop = store.subscribe((id) => changed.push(id));
      const task = storedTask('p:notes', store.nodeId);
      await store.create(task, 4);
      // A networked store may still be subscribing: write again until a change is heard.
      let n = 0;
      await waitFor(async () => {
        if (changed.includes(task.taskId)) return true;
        const record = await store.read(task.taskId);
        await store.write({ ...task, statusMessage: `x${n++}` }, record?.version as number);
        return changed.includes(task.taskId);
      }, 'a change of the task to be told');
      stop();
      await store.close?.();
    });
  });
}
