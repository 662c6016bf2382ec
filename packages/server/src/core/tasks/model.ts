/**
 * The task state machine, in one place for every store and process: a change is applied to a task
 * as read, and the result is written back only if nobody wrote in between. Finished tasks never
 * change again; input requests are keyed and each key is answered once.
 */

import type { WireError } from '../errors.js';
import type { InputRequest } from '../handler-types.js';
import type { StoredTask, TaskStatus } from './types.js';

export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

export type TaskChange =
  /** A new status message (from the handler's progress). */
  | { readonly type: 'message'; readonly statusMessage: string }
  /** 2025-11-25: the handler waits for (or got) the answer to a request it sent the client. */
  | { readonly type: 'waiting'; readonly waiting: boolean }
  /** 2026-07-28: the handler asks the client something; the task is input_required until answered. */
  | { readonly type: 'ask'; readonly key: string; readonly request: InputRequest }
  /** 2026-07-28: answers from tasks/update; keys not outstanding are ignored. */
  | { readonly type: 'answer'; readonly responses: Readonly<Record<string, unknown>> }
  /** The end: a result, an error, or cancelled. */
  | {
      readonly type: 'finish';
      readonly status: TerminalStatus;
      readonly result?: Record<string, unknown>;
      readonly error?: WireError;
      readonly statusMessage?: string;
    };

export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export function expiresAt(task: StoredTask): number {
  return task.createdAt + task.ttlMs;
}

function omit<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
}

/** The task after `change`, or undefined when the change does not apply (finished task, nothing new). */
export function advance(task: StoredTask, change: TaskChange, now: number): StoredTask | undefined {
  if (isTerminal(task.status)) return undefined;
  switch (change.type) {
    case 'message':
      if (change.statusMessage === task.statusMessage) return undefined;
      return { ...task, statusMessage: change.statusMessage, updatedAt: now };
    case 'waiting': {
      const status = change.waiting ? 'input_required' : 'working';
      return status === task.status ? undefined : { ...task, status, updatedAt: now };
    }
    case 'ask':
      if (task.inputRequests?.[change.key] !== undefined) return undefined;
      return {
        ...task,
        status: 'input_required',
        inputRequests: { ...task.inputRequests, [change.key]: change.request },
        updatedAt: now,
      };
    case 'answer': {
      const pending = { ...task.inputRequests };
      const answered: Record<string, unknown> = {};
      for (const key of Object.keys(change.responses)) {
        if (!Object.hasOwn(pending, key)) continue;
        answered[key] = change.responses[key];
        delete pending[key];
      }
      if (Object.keys(answered).length === 0) return undefined;
      const left = Object.keys(pending).length > 0;
      return {
        ...omit(task, 'inputRequests'),
        ...(left ? { inputRequests: pending } : {}),
        status: left ? 'input_required' : 'working',
        inputResponses: { ...task.inputResponses, ...answered },
        updatedAt: now,
      };
    }
    case 'finish': {
      const done: StoredTask = {
        ...omit(task, 'inputRequests', 'inputResponses', 'statusMessage'),
        status: change.status,
        updatedAt: now,
      };
      return {
        ...done,
        ...(change.statusMessage === undefined ? {} : { statusMessage: change.statusMessage }),
        ...(change.result === undefined ? {} : { result: change.result }),
        ...(change.error === undefined ? {} : { error: change.error }),
      };
    }
  }
}
