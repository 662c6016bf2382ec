/**
 * `taskIds` on `subscriptions/listen` (2026-07-28 tasks extension): the listen stream carries a
 * `notifications/tasks` with the full task each time one of those tasks changes, in any process sharing the store.
 * Only a client that declared the extension may ask (-32021 otherwise); a task id the caller does
 * not own is acknowledged but never reported.
 */

import { missingExtension } from '../../extensions/client.js';
import type { ListenFilter } from '../../host.js';
import { invalidParams } from '../../params.js';
import { ownerOf } from '../../tasks/scope.js';
import type { Tasks } from '../../tasks/service.js';
import { modernTask, TASKS_EXTENSION } from '../../tasks/views.js';

const MAX_TASK_IDS = 100;

export function taskIdsFilter(tasks: Tasks): ListenFilter {
  return {
    grant(value, req) {
      if (req.clientExtension(TASKS_EXTENSION) === undefined) {
        throw missingExtension(TASKS_EXTENSION, 'notifications.taskIds on subscriptions/listen');
      }
      if (
        !Array.isArray(value) ||
        value.length > MAX_TASK_IDS ||
        value.some((id) => typeof id !== 'string')
      ) {
        throw invalidParams(
          `notifications.taskIds must be an array of at most ${MAX_TASK_IDS} task ids`,
          '/params/notifications/taskIds',
        );
      }
      return value.length === 0 ? undefined : [...new Set(value as string[])];
    },
    start(granted, req, meta) {
      const owner = ownerOf(req);
      const stops = (granted as string[]).map((taskId) => {
        let last = '';
        return tasks.watch(taskId, () => {
          void tasks.read(taskId).then(
            (record) => {
              const task = record?.task;
              if (task === undefined || task.owner !== owner) return;
              const seen = `${task.status}/${task.updatedAt}`;
              if (seen === last) return;
              last = seen;
              req.notify('notifications/tasks', { ...modernTask(task, true), _meta: meta });
            },
            () => undefined,
          );
        });
      });
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}
