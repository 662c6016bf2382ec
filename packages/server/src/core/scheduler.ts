/**
 * Bounded concurrency shared by every session of a server: at most `maxConcurrency` handlers run,
 * up to `maxQueued` wait in FIFO order, and one timer (not one per request) enforces the handler
 * timeout — running requests are kept in start order, which is also deadline order.
 */
import { Running } from './running.js';

/**
 * `slot` of a job whose `start()` is under way: it holds a slot that is not yet in the ring. A job may let
 * go of its slot before `start()` returns (a synchronous handler answered, or the request was handed over
 * to a task); `release` then marks it free and `begin` gives the slot back, so the slot count is decided
 * here alone, whenever the release comes.
 */
const STARTING = -2;

export interface Schedulable {
  /** Set once the request was answered, cancelled or timed out; a queued one is then skipped. */
  readonly finished: boolean;
  deadline: number;
  /** Where the scheduler keeps it while it runs (the scheduler's own field: -1 when it holds no slot). */
  slot: number;
  start(): void;
  timeout(): void;
}

export class Scheduler {
  private running = 0;
  private queue: (Schedulable | undefined)[] = [];
  private head = 0;
  private readonly active = new Running<Schedulable>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly sweepBound = (): void => this.sweep();

  constructor(
    private readonly maxConcurrency: number,
    private readonly maxQueued: number,
    private readonly timeoutMs: number,
  ) {}

  get queued(): number {
    return this.queue.length - this.head;
  }

  get runningCount(): number {
    return this.running;
  }

  /** Jobs in the ring of running jobs (equal to `runningCount` whenever no job is being started). */
  get activeCount(): number {
    return this.active.size;
  }

  /** Start `job` now or queue it; false when the queue is full (the caller answers "busy"). */
  submit(job: Schedulable): boolean {
    if (this.running < this.maxConcurrency) {
      this.begin(job);
      return true;
    }
    if (this.queue.length - this.head >= this.maxQueued) return false;
    this.queue.push(job);
    return true;
  }

  /**
   * A started job no longer needs its slot (answered, cancelled, timed out, or handed over to a task):
   * free it and start the next. Releasing a job twice, or one that never started, does nothing.
   */
  release(job: Schedulable): void {
    if (job.slot === STARTING) {
      job.slot = -1; // begin() frees the slot when start() returns (no nested drain from inside a start)
      return;
    }
    if (!this.active.remove(job)) return;
    this.running--;
    this.drain();
  }

  private drain(): void {
    while (this.running < this.maxConcurrency && this.head < this.queue.length) {
      const next = this.queue[this.head];
      this.queue[this.head++] = undefined;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        const old = this.queue;
        this.queue = old.slice(this.head);
        old.fill(undefined); // a dead array in the old generation would keep the jobs it held alive
        this.head = 0;
      }
      if (next && !next.finished) this.begin(next);
    }
    if (this.head === this.queue.length && this.head > 0) {
      this.queue.length = 0;
      this.head = 0;
    }
  }

  private begin(job: Schedulable): void {
    this.running++;
    job.slot = STARTING;
    job.start();
    if (job.slot !== STARTING || job.finished) {
      // Released while starting (a synchronous handler, a hand-over to a task): no slot to hold, no deadline.
      job.slot = -1;
      this.running--;
      return;
    }
    this.active.add(job);
    if (this.timeoutMs > 0) {
      job.deadline = Date.now() + this.timeoutMs;
      if (this.timer === undefined) this.arm(job.deadline);
    }
  }

  private arm(at: number): void {
    // A sweep can start jobs (freed slots) that arm the timer before the sweep re-arms it: keep one.
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(this.sweepBound, Math.max(0, at - Date.now()) + 1);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private sweep(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const job of this.active.inOrder()) {
      if (job.slot < 0) continue; // finished while an earlier one timed out
      if (job.deadline > now) {
        this.arm(job.deadline);
        return;
      }
      job.timeout();
    }
    // Jobs started in the slots freed above armed the timer as they began (it was unset).
  }

  /** Stop the timer (server closed). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
