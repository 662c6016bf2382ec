/**
 * A request handed to a task. The running handler keeps its context; from the hand-over on, this
 * object stands in for its connection: the request is answered with the task once it is stored, and
 * what the handler does afterwards goes to the task (progress as the status message, input as
 * input_required, its outcome as the result or error). It watches the task for cancellation and for
 * answers given through any process sharing the store.
 */

import { ErrorCode, LocalError, McpError, unavailable, type WireError } from '../../errors.js';
import type { InputRequest, PeerRequestOptions, RequestId } from '../../handler-types.js';
import type { ConnectionCore, MethodContext, Served } from '../../host.js';
import { levelRank, redact } from '../../logging.js';
import { missingCapability } from '../../modern/input.js';
import { taskCreated } from '../../modern/results.js';
import type { ClientContext } from '../../protocol.js';
import { unserialisable } from '../../replies.js';
import { expiresAt, isTerminal, type TaskChange } from '../../tasks/model.js';
import type { Tasks } from '../../tasks/service.js';
import type { StoredTask } from '../../tasks/types.js';
import { legacyStatus, legacyTask, modernTask, withRelatedTask } from '../../tasks/views.js';
import type { TaskTrace } from '../../telemetry/server-telemetry.js';
import type { JsonRpcMessage } from '../../transport.js';
import type { LogLevel } from '../../types.js';

/** How often a running task re-reads itself, in case a change notice was lost on the way. */
const POLL_MS = 2000;
/** How long to wait before writing a task's outcome again when the store could not be reached. */
const FINISH_RETRY_MS = 1000;
/** Status messages from progress are written at most this often (the latest one wins). */
const MESSAGE_GAP_MS = 200;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets the process exit while only `timer` is pending (a no-op where timers have no `unref`). */
export function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}

export class TaskRun implements ConnectionCore {
  readonly taskId: string;
  readonly owner: string;
  readonly #tasks: Tasks;
  readonly #origin: ConnectionCore;
  readonly #req: MethodContext;
  readonly #created: Promise<boolean>;
  readonly #expiresAt: number;
  readonly #asks = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
  readonly #keys = new Set<string>();
  #peerWaits = 0;
  #lastStatus: string;
  #message: string | undefined;
  #noting = false;
  #done = false;
  #stopWatch: (() => void) | undefined;
  #poll: ReturnType<typeof setTimeout> | undefined;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  readonly #trace: TaskTrace | undefined;

  /**
   * Take `req` over for `task` and store the task; the request is answered once it is stored. `trace` is the
   * span the handler runs under (made when the handler began), if a tracer records.
   */
  constructor(tasks: Tasks, req: MethodContext, task: StoredTask, trace: TaskTrace | undefined) {
    this.#tasks = tasks;
    this.#req = req;
    this.#origin = req.session;
    this.taskId = task.taskId;
    this.owner = task.owner;
    this.#expiresAt = expiresAt(task);
    this.#lastStatus = task.status;
    this.#trace = trace;
    trace?.identify(task.taskId);
    req.handOver(this);
    tasks.running.add(this);
    this.#created = Promise.resolve()
      .then(() => tasks.store.create(task, tasks.options.maxTasksPerPrincipal))
      .then(
        (stored) => {
          if (!stored) return this.#refuse(tasks.limitReached());
          this.#answer(task);
          return true;
        },
        (error: unknown) => this.#refuse(unavailable('the task could not be stored', error)),
      );
  }

  /** Resolves true once the task is stored (false when it was refused; the request then got the error). */
  get created(): Promise<boolean> {
    return this.#created;
  }

  #answer(task: StoredTask): void {
    const server = this.#origin.server;
    const result =
      this.#req.era === 'modern' ? taskCreated(server, modernTask(task, false)) : { task: legacyTask(task) };
    this.#origin.reply(this.#req as unknown as Served, { jsonrpc: '2.0', id: this.#req.requestId, result });
    this.#stopWatch = this.#tasks.watch(this.taskId, () => void this.#refresh());
    this.#schedulePoll();
    this.#expiry = setTimeout(
      () =>
        this.#end(
          new McpError(ErrorCode.RequestTimeout, `task ${this.taskId} expired (its TTL is ${task.ttlMs} ms)`),
        ),
      this.#expiresAt - this.#tasks.clock(),
    );
    unref(this.#expiry);
  }

  #refuse(error: McpError): false {
    this.#origin.reply(this.#req as unknown as Served, {
      jsonrpc: '2.0',
      id: this.#req.requestId,
      error: error.toJSON(),
    });
    this.#end(error);
    return false;
  }

  /** Stop the handler (cancelled, expired, refused, the server closing). */
  #end(reason: unknown): void {
    if (!this.#done) this.#req.cancel(reason);
  }

  /** The connection the request came in on (a task outlives it unless it owned the task). */
  get origin(): ConnectionCore {
    return this.#origin;
  }

  /**
   * The server is closing: the task fails, saying why (written before the handler is stopped, so that
   * the handler's own end cannot write another outcome first), and the handler is stopped.
   */
  async shutdown(): Promise<void> {
    const message = 'Task failed: the server shut down before the task finished';
    const error = { code: ErrorCode.InternalError, message };
    await this.#change({ type: 'finish', status: 'failed', error, statusMessage: message }).catch(
      () => undefined,
    );
    this.#end(new LocalError('CLOSED', message));
  }

  /** The connection that owned the task closed: nobody can ask for it any more, so it is cancelled. */
  abandon(): void {
    const message = 'the connection that owned this task closed';
    void this.#change({ type: 'finish', status: 'cancelled', statusMessage: message }).catch(() => undefined);
    this.#end(new LocalError('CLOSED', message));
  }

  /** Apply a change once the task is stored; legacy clients hear about new statuses. */
  async #change(change: TaskChange): Promise<StoredTask | undefined> {
    if (!(await this.#created)) return undefined;
    const task = await this.#tasks.change(this.taskId, change);
    if (task !== undefined) this.#observed(task);
    return task;
  }

  /** A newer state of the task: tell a 2025 client about a new status. */
  #observed(task: StoredTask): void {
    const status = legacyStatus(task);
    if (status === this.#lastStatus) return;
    this.#lastStatus = status;
    if (this.#req.era === 'legacy') {
      this.#origin.send({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: legacyTask(task) });
    }
  }

  /** Re-read the task: notice that it was cancelled (or expired), pick up answers. */
  async #refresh(): Promise<void> {
    if (this.#done) return;
    let task: StoredTask | undefined;
    try {
      task = (await this.#tasks.store.read(this.taskId))?.task;
    } catch {
      return; // the store is unreachable: try again at the next poll
    }
    if (task === undefined)
      return this.#end(new McpError(ErrorCode.RequestTimeout, `task ${this.taskId} is gone (expired)`));
    this.#observed(task);
    if (isTerminal(task.status)) return this.#end(task.statusMessage ?? `the task was ${task.status}`);
    const answers = task.inputResponses;
    if (answers === undefined) return;
    for (const [key, ask] of [...this.#asks]) {
      if (!Object.hasOwn(answers, key)) continue;
      this.#asks.delete(key);
      ask.resolve(answers[key]);
    }
  }

  #schedulePoll(): void {
    this.#poll = setTimeout(() => {
      void this.#refresh().then(() => {
        if (!this.#done) this.#schedulePoll();
      });
    }, POLL_MS);
    unref(this.#poll);
  }

  // The connection, as the handler's context sees it from now on

  get server() {
    return this.#origin.server;
  }
  get client(): ClientContext | undefined {
    return this.#origin.client;
  }
  set client(_value: ClientContext | undefined) {}
  get logFloor(): number {
    return this.#origin.logFloor;
  }
  set logFloor(_value: number) {}
  get subscriptions(): Set<string> {
    return this.#origin.subscriptions;
  }
  get sessionId(): string | undefined {
    return this.#origin.sessionId;
  }
  get connectionKey(): string {
    return this.#origin.connectionKey;
  }
  get ephemeral(): boolean {
    return this.#origin.ephemeral;
  }

  /** The handler's outcome: the task completes with its result or fails with its error. */
  reply(_req: Served, message: Record<string, unknown>): void {
    this.#trace?.outcome(message);
    void this.#finish(outcomeOf(message, this.#req.method));
  }

  /** Write the outcome; while the store cannot be reached, try again every second until the TTL. */
  async #finish(change: TaskChange): Promise<void> {
    for (;;) {
      try {
        await this.#change(change);
        return;
      } catch {
        if (this.#tasks.clock() + FINISH_RETRY_MS >= this.#expiresAt) return;
        await delay(FINISH_RETRY_MS);
      }
    }
  }

  /** The handler is done (answered, cancelled, stopped): stop watching, release what waits. */
  settled(_req: Served): void {
    if (this.#done) return;
    this.#done = true;
    this.#trace?.end();
    this.#stopWatch?.();
    if (this.#poll !== undefined) clearTimeout(this.#poll);
    if (this.#expiry !== undefined) clearTimeout(this.#expiry);
    this.#tasks.running.delete(this);
    const ended = new LocalError('CLOSED', 'the task ended before the client answered');
    for (const ask of this.#asks.values()) ask.reject(ended);
    this.#asks.clear();
  }

  /** Messages the handler sends: progress becomes the status message; 2025 clients get the rest, tied to the task. */
  send(message: JsonRpcMessage | JsonRpcMessage[], _related?: RequestId): void {
    if (Array.isArray(message) || this.#done) return;
    const params = message.params as Record<string, unknown> | undefined;
    if (message.method === 'notifications/progress') {
      this.#note(statusOf(params));
      if (params?.progressToken === undefined) return;
    }
    // 2026-07-28 tasks carry no notifications (the extension leaves progress and log messages out).
    if (this.#req.era !== 'legacy') return;
    this.#origin.send({ ...message, params: withRelatedTask(params, this.taskId) });
  }

  logFor(level: LogLevel, logger: string | undefined, data: unknown, _related: RequestId | undefined): void {
    const options = this.server.options;
    if (this.#req.era !== 'legacy' || !options.logging || levelRank(level) < this.#origin.logFloor) return;
    const params: Record<string, unknown> = { level, data: options.redactLogs ? redact(data) : data };
    if (logger !== undefined) params.logger = logger;
    this.#origin.send({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: withRelatedTask(params, this.taskId),
    });
  }

  /** 2025-11-25: a request to the client, tied to the task; the task is input_required until answered. */
  requestFor<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: PeerRequestOptions | undefined,
    _origin: { readonly requestId?: RequestId; readonly signal: AbortSignal } | undefined,
  ): Promise<T> {
    const waiting = (delta: number): void => {
      this.#peerWaits += delta;
      if (this.#peerWaits === (delta > 0 ? 1 : 0))
        void this.#change({ type: 'waiting', waiting: delta > 0 }).catch(() => undefined);
    };
    return this.#created.then((stored) => {
      if (!stored) throw new LocalError('CLOSED', 'the task was refused');
      waiting(1);
      // Unrelated to the answered tools/call: over HTTP it travels on the session's GET stream.
      const sent = this.#origin.requestFor<T>(method, withRelatedTask(params, this.taskId), options, {
        signal: this.#req.signal,
      });
      return sent.then(
        (value) => {
          waiting(-1);
          return value;
        },
        (error: unknown) => {
          waiting(-1);
          throw error;
        },
      );
    });
  }

  /** 2026-07-28: a question for the client, shown by tasks/get until tasks/update answers it. */
  input(request: InputRequest, key: string | undefined): Promise<unknown> {
    const missing = missingCapability(request, this.#req.client.capabilities);
    if (missing !== undefined) {
      return Promise.reject(
        new McpError(
          ErrorCode.MissingRequiredClientCapability,
          `Missing required client capability: ${Object.keys(missing)[0]} (the task needs it and the request that created it did not declare it)`,
          { requiredCapabilities: missing },
        ),
      );
    }
    const k = this.#freshKey(key);
    return new Promise((resolve, reject) => {
      this.#asks.set(k, { resolve, reject });
      this.#change({ type: 'ask', key: k, request }).then(
        () => this.#refresh(),
        (error: unknown) => {
          this.#asks.delete(k);
          reject(error);
        },
      );
    });
  }

  /** Keys are never reused over a task's life (the extension asks so). */
  #freshKey(wanted: string | undefined): string {
    let key = wanted ?? `input-${this.#keys.size + 1}`;
    for (let n = 2; this.#keys.has(key); n++) key = `${wanted ?? 'input'}-${n}`;
    this.#keys.add(key);
    return key;
  }

  /** Progress as the status message: written at most every MESSAGE_GAP_MS, the latest one wins. */
  #note(message: string): void {
    this.#message = message;
    if (this.#noting) return;
    this.#noting = true;
    void (async () => {
      try {
        while (this.#message !== undefined && !this.#done) {
          const next = this.#message;
          this.#message = undefined;
          await this.#change({ type: 'message', statusMessage: next });
          await delay(MESSAGE_GAP_MS);
        }
      } catch {
        // A lost status message is not worth failing the task for.
      } finally {
        this.#noting = false;
      }
    })();
  }
}

/**
 * How a handler's answer ends its task: its error fails it; a result that is not valid JSON (a BigInt, a
 * cycle) fails it with the -32603 its request would have got, in every store, instead of completing with
 * something no store can keep and no client can read.
 */
function outcomeOf(message: Record<string, unknown>, method: string): TaskChange {
  let error = message.error as WireError | undefined;
  if (error === undefined) {
    const result = message.result as Record<string, unknown>;
    try {
      JSON.stringify(result);
      return { type: 'finish', status: 'completed', result };
    } catch (problem) {
      error = unserialisable(method, problem);
    }
  }
  return { type: 'finish', status: 'failed', error, statusMessage: error.message };
}

function statusOf(params: Record<string, unknown> | undefined): string {
  if (typeof params?.message === 'string') return params.message;
  const done = params?.progress;
  return params?.total === undefined
    ? `progress ${String(done)}`
    : `progress ${String(done)}/${String(params.total)}`;
}
