/**
 * A graceful stop of the HTTP endpoint, decided here and nowhere else. Once the drain begins, the health
 * check fails and new work is refused with 503 and `Retry-After` (a load balancer sends it to another
 * process; nothing of it was done here): new sessions, new requests, new GET streams. What finishes
 * work already under way is still served: the client's answers and notifications, the task methods, a
 * resumption of a call running here, DELETE. The calls and tasks in flight get the grace; then the
 * tasks still running fail (saying the server shut down), the calls still waiting are answered with
 * `Request lost` (stored, so that a client resuming elsewhere gets the same answer), and every stream
 * and session closes here without deleting anything another process serves.
 */

import { refuse } from '../seam/refusal.js';

/** After tasks were failed: how long their clients have to read the failure here (a poll or two). */
const TASK_LINGER_MS = 1000;
/**
 * The shortest drain (within the grace): a balancer checking health every 500 ms has taken the process
 * out before its connections close, so that no request it sends meets a closing connection.
 */
const MIN_DRAIN_MS = 1000;
/** How often the drain looks whether the work in flight ended. */
const CHECK_MS = 25;

const DRAIN_HEADERS = { 'retry-after': '1', connection: 'close' };
const REFUSAL =
  'Service Unavailable: this server is shutting down and takes no new work; send the request again (another server of the deployment takes it)';

/** What a drain acts on. */
export interface DrainTargets {
  /** Calls and tasks in flight here. */
  busy(): number;
  /** Fail every task still running here; resolves with how many there were, once written. */
  endTasks(): Promise<number>;
  /** Answer every request still waiting here with the error saying so; resolves once stored. */
  answerLeft(): Promise<void>;
  /** Close every stream and session here, deleting nothing another process serves. */
  closeAll(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class Drain {
  #draining = false;
  #done: Promise<void> | undefined;

  get draining(): boolean {
    return this.#draining;
  }

  /** Whether a POST body may still be served while draining: anything but a request that starts work. */
  admits(message: unknown): boolean {
    if (!this.#draining) return true;
    const messages = Array.isArray(message) ? message : [message];
    return messages.every((m) => {
      const { method, id } = (m ?? {}) as { method?: unknown; id?: unknown };
      return (
        method === undefined ||
        id === undefined ||
        (typeof method === 'string' && method.startsWith('tasks/'))
      );
    });
  }

  /** Answer a request the drain does not admit. */
  refuse(): never {
    refuse({ status: 503, code: -32000, message: REFUSAL, headers: DRAIN_HEADERS });
  }

  /** Drain for at most `graceMs`, then end what is left; idempotent (the first call's grace holds). */
  run(graceMs: number, targets: DrainTargets): Promise<void> {
    this.#draining = true;
    this.#done ??= (async () => {
      const started = Date.now();
      const settled = () => targets.busy() === 0 && Date.now() - started >= Math.min(graceMs, MIN_DRAIN_MS);
      await until(settled, started + graceMs);
      if ((await targets.endTasks()) > 0) await sleep(TASK_LINGER_MS);
      await targets.answerLeft();
      await targets.closeAll();
    })();
    return this.#done;
  }
}

async function until(done: () => boolean, deadline: number): Promise<void> {
  while (!done() && Date.now() < deadline)
    await sleep(Math.min(CHECK_MS, Math.max(0, deadline - Date.now())));
}
