/**
 * How one stored task reads in each era: the 2026-07-28 `DetailedTask` (`ttlMs`, `pollIntervalMs`,
 * the result, error or input requests inlined) and the 2025-11-25 `Task` (`ttl`, `pollInterval`; a
 * tool result with `isError` reads `failed` there, as that revision says), plus the related-task
 * `_meta` of 2025 messages.
 */

import type { StoredTask, TaskStatus } from './types.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** 2026-07-28: the task as `tasks/get`, `notifications/tasks` and a CreateTaskResult show it. */
export function modernTask(task: StoredTask, detailed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { taskId: task.taskId, status: task.status };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  out.createdAt = iso(task.createdAt);
  out.lastUpdatedAt = iso(task.updatedAt);
  out.ttlMs = task.ttlMs;
  out.pollIntervalMs = task.pollIntervalMs;
  if (!detailed) return out;
  if (task.status === 'input_required' && task.inputRequests !== undefined)
    out.inputRequests = task.inputRequests;
  if (task.status === 'completed' && task.result !== undefined) out.result = task.result;
  if (task.status === 'failed' && task.error !== undefined) out.error = task.error;
  return out;
}

/** 2025-11-25: a tool result with `isError` is a failed task (its result is still what tasks/result gives). */
export function legacyStatus(task: StoredTask): TaskStatus {
  return task.status === 'completed' && task.result?.isError === true ? 'failed' : task.status;
}

/** 2025-11-25: the task as `tasks/get`, `tasks/list`, `tasks/cancel` and `notifications/tasks/status` show it. */
export function legacyTask(task: StoredTask): Record<string, unknown> {
  const out: Record<string, unknown> = { taskId: task.taskId, status: legacyStatus(task) };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  out.createdAt = iso(task.createdAt);
  out.lastUpdatedAt = iso(task.updatedAt);
  out.ttl = task.ttlMs;
  out.pollInterval = task.pollIntervalMs;
  return out;
}

/** The `_meta` entry tying a 2025 message to its task. */
function relatedTask(taskId: string): Record<string, unknown> {
  return { [RELATED_TASK]: { taskId } };
}

/** `params` with the related-task `_meta` added (a copy; `_meta` merged). */
export function withRelatedTask(
  params: Record<string, unknown> | undefined,
  taskId: string,
): Record<string, unknown> {
  const meta = params?._meta as Record<string, unknown> | undefined;
  return { ...params, _meta: { ...meta, ...relatedTask(taskId) } };
}
