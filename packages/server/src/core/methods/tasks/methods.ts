/**
 * The task methods, added through the extension API. 2026-07-28 (extension
 * `io.modelcontextprotocol/tasks`, only for clients that declare it): tasks/get with the result,
 * error or input requests inlined, tasks/update, tasks/cancel. 2025-11-25: tasks/get, tasks/result
 * (waits for the end), tasks/list, tasks/cancel. Every lookup is scoped to the caller.
 */

import { ErrorCode, McpError } from '../../errors.js';
import { addMethodTo } from '../../extensions/methods.js';
import type { HandlerContext } from '../../handler-types.js';
import type { MethodContext, ServerHost } from '../../host.js';
import { checkAnswer } from '../../modern/input.js';
import { isTerminal } from '../../tasks/model.js';
import { ownerOf } from '../../tasks/scope.js';
import { evictedError, type Tasks } from '../../tasks/service.js';
import type { StoredTask } from '../../tasks/types.js';
import { legacyStatus, legacyTask, modernTask, TASKS_EXTENSION, withRelatedTask } from '../../tasks/views.js';

const TASK_ID = { type: 'object', properties: { taskId: { type: 'string' } }, required: ['taskId'] } as const;
const UPDATE = {
  type: 'object',
  properties: { taskId: { type: 'string' }, inputResponses: { type: 'object' } },
  required: ['taskId', 'inputResponses'],
} as const;
const LIST = { type: 'object', properties: { cursor: { type: 'string' } } } as const;
const EMPTY = Object.freeze({});

/** The handler context is the request itself (MethodContext) for methods the core adds. */
function owner(ctx: HandlerContext): string {
  return ownerOf(ctx as MethodContext);
}

/** 2025-11-25 sessions only (tasks came with that revision). */
function requireLegacyTasks(ctx: HandlerContext, method: string): void {
  if (ctx.protocolVersion < '2025-11-25') {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} needs protocol 2025-11-25 (tasks)`,
    );
  }
}

export function addTaskMethods(server: ServerHost, tasks: Tasks): void {
  const modern = {
    eras: ['modern'] as const,
    extension: TASKS_EXTENSION,
    scheduled: false,
    nameParam: 'taskId',
  };
  addMethodTo(server, { method: 'tasks/get', params: TASK_ID, ...modern }, async ({ taskId }, ctx) => {
    const task = await tasks.find(taskId, owner(ctx));
    const evicted = evictedError(task);
    if (evicted !== undefined) throw evicted;
    return modernTask(task, true);
  });
  addMethodTo(
    server,
    { method: 'tasks/update', params: UPDATE, ...modern },
    async ({ taskId, inputResponses }, ctx) => {
      const task = await tasks.find(taskId, owner(ctx));
      const answers = inputResponses as Record<string, unknown>;
      for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
        if (!Object.hasOwn(answers, key)) continue;
        const problem = checkAnswer(request, answers[key]);
        if (problem !== undefined) {
          throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${problem}`, {
            pointer: `/params/inputResponses/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          });
        }
      }
      await tasks.change(task.taskId, { type: 'answer', responses: answers });
      return EMPTY;
    },
  );
  addMethodTo(server, { method: 'tasks/cancel', params: TASK_ID, ...modern }, async ({ taskId }, ctx) => {
    const task = await tasks.find(taskId, owner(ctx));
    await tasks.change(task.taskId, cancelled());
    return EMPTY;
  });

  const legacy = { eras: ['legacy'] as const, scheduled: false };
  addMethodTo(server, { method: 'tasks/get', params: TASK_ID, ...legacy }, async ({ taskId }, ctx) => {
    requireLegacyTasks(ctx, 'tasks/get');
    return legacyTask(await tasks.find(taskId, owner(ctx)));
  });
  addMethodTo(server, { method: 'tasks/result', params: TASK_ID, ...legacy }, async ({ taskId }, ctx) => {
    requireLegacyTasks(ctx, 'tasks/result');
    const task = await finished(tasks, taskId, owner(ctx), ctx.signal);
    const evicted = evictedError(task);
    if (evicted !== undefined) throw evicted;
    if (task.status === 'completed' && task.result !== undefined)
      return withRelatedTask(task.result, task.taskId);
    if (task.status === 'failed' && task.error !== undefined) {
      throw new McpError(task.error.code, task.error.message, task.error.data);
    }
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Task ${task.taskId} was cancelled before it produced a result`,
      {
        taskId: task.taskId,
      },
    );
  });
  addMethodTo(server, { method: 'tasks/list', params: LIST, ...legacy }, async ({ cursor }, ctx) => {
    requireLegacyTasks(ctx, 'tasks/list');
    const page = await tasks.store.list(owner(ctx), cursor, server.options.pageSize);
    if (page === undefined) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { cursor });
    const result: Record<string, unknown> = { tasks: page.tasks.map(legacyTask) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  });
  addMethodTo(server, { method: 'tasks/cancel', params: TASK_ID, ...legacy }, async ({ taskId }, ctx) => {
    requireLegacyTasks(ctx, 'tasks/cancel');
    const task = await tasks.find(taskId, owner(ctx));
    const status = legacyStatus(task);
    if (isTerminal(status)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Cannot cancel task: already in terminal status '${status}'`,
        {
          taskId,
        },
      );
    }
    const after = await tasks.change(task.taskId, cancelled());
    return legacyTask(after ?? task);
  });
}

function cancelled() {
  return {
    type: 'finish',
    status: 'cancelled',
    statusMessage: 'The task was cancelled by request.',
  } as const;
}

/** Wait (woken by the store, and polling at the task's interval) until the task finished. */
async function finished(
  tasks: Tasks,
  taskId: string,
  owner: string,
  signal: AbortSignal,
): Promise<StoredTask> {
  for (;;) {
    const task = await tasks.find(taskId, owner);
    if (isTerminal(task.status)) return task;
    await new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        stop();
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
      };
      const done = (): void => {
        cleanup();
        resolve();
      };
      const aborted = (): void => {
        cleanup();
        reject(signal.reason);
      };
      const stop = tasks.watch(taskId, done);
      const timer = setTimeout(done, task.pollIntervalMs);
      if (signal.aborted) aborted();
      else signal.addEventListener('abort', aborted, { once: true });
    });
  }
}
