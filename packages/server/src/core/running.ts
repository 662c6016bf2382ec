/**
 * The handlers running at a moment, in the order they started: a ring of slots, each job knowing its own, so
 * starting and finishing one costs no search and no allocation. Not a `Set`: one entry added and one dropped per
 * request makes a set rebuild its table over and over, and V8 links each dropped table to the next, so a table
 * that reached the old generation keeps every later one, and the requests they held, alive until a full
 * collection (see id-table.ts). Here a finished job's slot is cleared at once.
 */

/** What the ring keeps: the scheduler's own field, -1 while the job is not running. */
export interface Slotted {
  slot: number;
}

const MIN_CAPACITY = 16;

export class Running<T extends Slotted> {
  #slots: (T | undefined)[] = new Array<T | undefined>(MIN_CAPACITY).fill(undefined);
  #mask = MIN_CAPACITY - 1;
  /** Sequence numbers: of the oldest slot that may be taken, and of the next one to give. */
  #first = 0;
  #next = 0;
  #count = 0;

  get size(): number {
    return this.#count;
  }

  add(job: T): void {
    if (this.#next - this.#first > this.#mask) this.#rebuild();
    job.slot = this.#next;
    this.#slots[this.#next & this.#mask] = job;
    this.#next++;
    this.#count++;
  }

  /** Frees the job's slot; false when it was not running here. */
  remove(job: T): boolean {
    const seq = job.slot;
    if (seq < this.#first || seq >= this.#next || this.#slots[seq & this.#mask] !== job) return false;
    this.#slots[seq & this.#mask] = undefined;
    job.slot = -1;
    this.#count--;
    if (this.#count === 0) {
      this.#first = 0;
      this.#next = 0;
    } else {
      while (this.#slots[this.#first & this.#mask] === undefined) this.#first++;
    }
    return true;
  }

  /** The running jobs, oldest first (a copy: the caller may start and finish jobs while it walks them). */
  inOrder(): T[] {
    const out: T[] = [];
    for (let seq = this.#first; seq < this.#next; seq++) {
      const job = this.#slots[seq & this.#mask];
      if (job !== undefined) out.push(job);
    }
    return out;
  }

  /**
   * The ring is full from its oldest job to its newest: doubled when it is mostly taken, else rebuilt at its size
   * with the jobs renumbered in order (a long job at the head must not make it grow with every job after it).
   */
  #rebuild(): void {
    const old = this.#slots;
    const oldMask = this.#mask;
    const capacity = this.#count * 2 > old.length ? old.length * 2 : old.length;
    this.#slots = new Array<T | undefined>(capacity).fill(undefined);
    this.#mask = capacity - 1;
    let seq = 0;
    for (let at = this.#first; at < this.#next; at++) {
      const job = old[at & oldMask];
      if (job === undefined) continue;
      job.slot = seq;
      this.#slots[seq++] = job;
    }
    this.#first = 0;
    this.#next = seq;
    old.fill(undefined); // emptied, a dead array in the old generation keeps no job alive
  }
}
