/**
 * Whether a tools/call runs as a task, and starting it. 2026-07-28: the server decides — a tool that
 * supports tasks runs as one when the client declared the extension (on this request), and a tool
 * that requires it is refused (-32021) otherwise. 2025-11-25: the client decides with `params.task`,
 * which a tool that never runs as a task refuses (-32601), and a tool that requires it needs (-32601).
 */

import { ErrorCode, LocalError, McpError } from '../../errors.js';
import { missingExtension } from '../../extensions/client.js';
import type { MethodContext } from '../../host.js';
import { isThenable, Later } from '../../later.js';
import { invalidParams } from '../../params.js';
import { ownerOf } from '../../tasks/scope.js';
import type { Tasks } from '../../tasks/service.js';
import type { TaskSupport } from '../../tasks/types.js';
import { TASKS_EXTENSION } from '../../tasks/views.js';
import type { TaskTrace } from '../../telemetry/server-telemetry.js';
import { TaskRun, unref } from './run.js';

/** The shortest TTL granted to a 2025 client that asks for less. */
const MIN_TTL_MS = 1000;

export interface TaskMode {
  /** The TTL a 2025 client asked for. */
  readonly ttlMs?: number;
}

/** undefined: run the call directly; otherwise run it as a task. Throws the refusals. */
export function taskMode(req: MethodContext, support: TaskSupport, name: string): TaskMode | undefined {
  if (req.era === 'modern') {
    if (support === 'forbidden') return undefined;
    if (req.clientExtension(TASKS_EXTENSION) !== undefined) return {};
    if (support === 'required')
      throw missingExtension(TASKS_EXTENSION, `tool "${name}" (it runs only as a task)`);
    return undefined;
  }
  const asked = req.params?.task;
  if (asked === undefined || req.protocolVersion < '2025-11-25') {
    if (support !== 'required') return undefined;
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: tool "${name}" runs only as a task: call it with params.task (protocol 2025-11-25)`,
    );
  }
  if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
    throw invalidParams('tools/call needs params.task as an object', '/params/task');
  }
  const ttl = (asked as { ttl?: unknown }).ttl;
  if (ttl !== undefined && ttl !== null && !(Number.isInteger(ttl) && (ttl as number) >= 0)) {
    throw invalidParams('params.task.ttl must be a whole number of milliseconds', '/params/task/ttl');
  }
  if (support === 'forbidden') {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Method not found: tool "${name}" does not run as a task (its execution.taskSupport is "forbidden")`,
    );
  }
  return typeof ttl === 'number' ? { ttlMs: Math.max(ttl, MIN_TTL_MS) } : {};
}

/**
 * Run `begin` (the tool's handler) as a task. 2025-11-25: the task is stored and answered first,
 * then the handler starts. 2026-07-28: the handler starts at once; if it is still running after the
 * sync window, and not waiting for multi-round-trip input, the request becomes a task.
 */
export function startTask(tasks: Tasks, req: MethodContext, mode: TaskMode, begin: () => unknown): unknown {
  const owner = ownerOf(req);
  // The handler runs under the task's span from its first line: what it traces belongs to the task.
  const trace = req.session.server.telemetry.task(req.op, req.method);
  if (req.era === 'legacy') {
    const run = new TaskRun(tasks, req, tasks.newTask(owner, 'legacy', mode.ttlMs), trace);
    // Refused (the request already got the error): nothing runs, and a middleware's next() rejects saying so.
    return run.created.then((stored) => {
      if (!stored) throw new LocalError('CLOSED', 'the task was refused, so the tool did not run');
      return trace === undefined ? begin() : trace.run(begin);
    });
  }
  const window = tasks.options.syncWindowMs;
  const begun = Date.now();
  let decided = false;
  let syncWindow: ReturnType<typeof setTimeout> | undefined;
  // At the window's end, a call still running and not waiting for input becomes a task.
  const decide = () => {
    if (decided) return;
    decided = true;
    if (syncWindow !== undefined) clearTimeout(syncWindow);
    if (!req.finished && !req.awaitingInput)
      new TaskRun(tasks, req, tasks.newTask(owner, 'modern', undefined), trace);
    else trace?.direct();
  };
  // A first question asked once the window is over (by the clock) finds a task, even when a loaded event loop
  // has not run the window's timer yet (Node may run a longer timer set earlier first). A window of 0 ends
  // with the turn the call started in, as the timer's shortest delay (1 ms) does.
  req.beforeInput = () => {
    if (Date.now() - begun >= Math.max(window, 1)) decide();
  };
  const out = trace === undefined ? begin() : trace.run(begin);
  // Unref'd: a call answered within the window leaves this timer behind, which must not keep its host alive.
  if (!decided) {
    syncWindow = setTimeout(decide, window);
    unref(syncWindow);
  }
  return trace === undefined ? out : whenSettled(out, trace);
}

/** `out`, watched so that a call answered within the sync window ends its span then (not at the window's end). */
function whenSettled(out: unknown, trace: TaskTrace): unknown {
  if (out instanceof Later) {
    const watched = new Later();
    out.listen({
      onSettled: (ok, value) => {
        trace.direct();
        if (ok) watched.resolve(value);
        else watched.reject(value);
      },
    });
    return watched;
  }
  if (isThenable(out)) {
    const direct = () => trace.direct();
    out.then(direct, direct);
    return out;
  }
  trace.direct();
  return out;
}
