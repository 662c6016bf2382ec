/**
 * What a server does with the outcomes of its tasks, whatever TaskStore holds them, as one suite: the memory
 * store runs it in `test/task-outcomes.test.ts`, the Redis store in `packages/redis/test/task-store.test.ts`.
 * Peers over memory in both eras; every wait has a deadline that fails naming what it waited for.
 */

import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { describe, expect, it } from 'vitest';
import { text } from '../../src/core/content.js';
import type { TaskOptions, TaskStore } from '../../src/core/tasks/types.js';
import { McpServer } from '../../src/index.js';
import { connectInMemory, initializedPeer } from './in-memory.js';
import { ModernPeer } from './modern.js';
import type { Message, Peer } from './peer.js';

export interface TaskServerSuiteOptions {
  /** A fresh store (the suite closes it). */
  makeStore(): TaskStore | Promise<TaskStore>;
}

const EXT = 'io.modelcontextprotocol/tasks';
/** Past the sync window (0 ms here, so its 1 ms timer fires first): the answer comes from a task. */
const later = (): Promise<void> => holdFor(5);

/** A server on `store` whose tools answer what the tests need. */
export function outcomeServer(store: TaskStore, options: Omit<TaskOptions, 'store'> = {}): McpServer {
  const server = new McpServer(
    { name: 'task-outcomes', version: '1.0.0' },
    { tasks: { store, pollIntervalMs: 20, syncWindowMs: 0, ...options } },
  );
  const task = { execution: { taskSupport: 'optional' as const } };
  // Each answers on a later turn, so a 2026-07-28 call becomes a task first.
  server.addTool({ name: 'bigint', ...task }, async () => {
    await later();
    return {
      content: [text('a number too big for JSON')],
      structuredContent: { n: 10n ** 30n } as unknown as Record<string, unknown>,
    };
  });
  server.addTool({ name: 'cycle', ...task }, async () => {
    await later();
    const loop: Record<string, unknown> = { content: [text('a result that contains itself')] };
    loop.self = loop;
    return loop as { content: ReturnType<typeof text>[] };
  });
  server.addTool(
    {
      name: 'sized',
      inputSchema: { type: 'object', properties: { bytes: { type: 'integer' }, tag: { type: 'string' } } },
      ...task,
    },
    async ({ bytes = 10, tag = '' }) => {
      await later();
      return { content: [text(`${String(tag)}:${'x'.repeat(Number(bytes))}`)] };
    },
  );
  return server;
}

/** A 2025-11-25 peer: its tasks/get until the task is finished; the task as 2025 shows it. */
export async function legacyFinished(peer: Peer, taskId: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await waitFor(async () => {
    task = (await peer.request('tasks/get', { taskId })).result as Record<string, unknown>;
    return ['completed', 'failed', 'cancelled'].includes(task?.status as string);
  }, `task ${taskId} to finish`).catch((error: Error) => {
    throw new Error(`${error.message} (2025 tasks/get last read ${JSON.stringify(task?.status)})`);
  });
  return task;
}

/** A 2026-07-28 peer: its tasks/get until the task is finished; the detailed task. */
export async function modernFinished(peer: ModernPeer, taskId: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await waitFor(async () => {
    task = (await peer.modern('tasks/get', { taskId })).result as Record<string, unknown>;
    return ['completed', 'failed', 'cancelled'].includes(task?.status as string);
  }, `task ${taskId} to finish`).catch((error: Error) => {
    throw new Error(`${error.message} (2026 tasks/get last read ${JSON.stringify(task?.status)})`);
  });
  return task;
}

/** A 2025 task of `tool`: its id. */
export async function legacyTask(
  peer: Peer,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const created = await peer.request('tools/call', { name: tool, arguments: args, task: { ttl: 60_000 } });
  const taskId = ((created.result as Message | undefined)?.task as { taskId?: string } | undefined)?.taskId;
  if (taskId === undefined) throw new Error(`no task for ${tool}: ${JSON.stringify(created)}`);
  return taskId;
}

export async function modernPeerOf(server: McpServer): Promise<ModernPeer> {
  const peer = new ModernPeer((await connectInMemory(server)).handle);
  peer.capabilities = { extensions: { [EXT]: {} } };
  return peer;
}

export function taskServerSuite(name: string, { makeStore }: TaskServerSuiteOptions): void {
  describe(`${name} (task outcomes through a server)`, () => {
    it('a result that is not valid JSON ends the task failed with -32603, in both eras', async () => {
      const store = await makeStore();
      const server = outcomeServer(store);
      try {
        const { peer } = await initializedPeer(server, {}, '2025-11-25');
        const modern = await modernPeerOf(server);
        for (const tool of ['bigint', 'cycle']) {
          const taskId = await legacyTask(peer, tool);
          expect(await legacyFinished(peer, taskId), `2025 ${tool}`).toMatchObject({ status: 'failed' });
          const answer = await peer.request('tasks/result', { taskId });
          expect(answer.error, `2025 ${tool}`).toMatchObject({ code: -32603 });
          expect((answer.error as { message: string }).message).toMatch(
            /^Internal error in tools\/call: the result is not valid JSON/,
          );

          const made = await modern.modern('tools/call', { name: tool });
          const modernId = (made.result as { taskId: string }).taskId;
          const done = await modernFinished(modern, modernId);
          expect(done, `2026 ${tool}`).toMatchObject({ status: 'failed', error: { code: -32603 } });
        }
      } finally {
        await server.close();
        await store.close?.();
      }
    });

    it('past maxFinishedBytesPerPrincipal, a 2025 tasks/result of a dropped outcome names the option; the newest are kept', async () => {
      const store = await makeStore();
      const server = outcomeServer(store, { maxFinishedBytesPerPrincipal: 1 << 20 });
      try {
        const { peer } = await initializedPeer(server, {}, '2025-11-25');
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) {
          const taskId = await legacyTask(peer, 'sized', { bytes: 256 << 10, tag: `t${i}` });
          await legacyFinished(peer, taskId);
          ids.push(taskId);
        }
        const first = await peer.request('tasks/result', { taskId: ids[0] });
        expect(first.error).toMatchObject({
          code: -32602,
          data: { taskId: ids[0], evicted: { limit: 'maxFinishedBytesPerPrincipal', value: 1 << 20 } },
        });
        expect((first.error as { message: string }).message).toContain('tasks.maxFinishedBytesPerPrincipal');
        expect(((await peer.request('tasks/get', { taskId: ids[0] })).result as Message).status).toBe(
          'completed',
        );
        const last = await peer.request('tasks/result', { taskId: ids[11] });
        expect(((last.result as Message).content as { text: string }[])[0]?.text.startsWith('t11:')).toBe(
          true,
        );
        // What is kept of them weighs at most the cap (plus what is left of those dropped).
        const listed = ((await peer.request('tasks/list', {})).result as { tasks: unknown[] }).tasks;
        expect(listed).toHaveLength(12);
        let kept = 0;
        for (const taskId of ids) {
          const answer = await peer.request('tasks/result', { taskId });
          if (answer.result !== undefined) kept += Buffer.byteLength(JSON.stringify(answer.result));
        }
        expect(kept).toBeLessThanOrEqual(1 << 20);
        expect(kept).toBeGreaterThan(3 * (256 << 10));
      } finally {
        await server.close();
        await store.close?.();
      }
    });

    it('past maxFinishedTasksPerPrincipal, a 2026-07-28 tasks/get of a dropped outcome names the option', async () => {
      const store = await makeStore();
      const server = outcomeServer(store, { maxFinishedTasksPerPrincipal: 3 });
      try {
        const modern = await modernPeerOf(server);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const made = await modern.modern('tools/call', { name: 'sized', arguments: { tag: `m${i}` } });
          const taskId = (made.result as { taskId: string }).taskId;
          await modernFinished(modern, taskId);
          ids.push(taskId);
        }
        for (const taskId of ids.slice(0, 2)) {
          const answer = await modern.modern('tasks/get', { taskId });
          expect(answer.error).toMatchObject({
            code: -32602,
            data: { evicted: { limit: 'maxFinishedTasksPerPrincipal', value: 3 } },
          });
          expect((answer.error as { message: string }).message).toMatch(
            /is completed, but its outcome is no longer kept: .*tasks\.maxFinishedTasksPerPrincipal/,
          );
        }
        for (const taskId of ids.slice(2)) {
          expect((await modern.modern('tasks/get', { taskId })).result).toMatchObject({
            status: 'completed',
          });
        }
      } finally {
        await server.close();
        await store.close?.();
      }
    });
  });
}
