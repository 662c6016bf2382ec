/**
 * The calls of one plugin instance that wait for an answer, oldest first. An instance serves calls one at a time
 * in the order they came, so answers come back in that order too: taking an answer is taking the head, with no
 * map entry made and dropped per call (a map's tables, promoted to the old generation, kept young calls alive
 * through scavenges). An id that is not the head's (a call stopped early, a late answer) is still found.
 */
export class InFlight<T> {
  #ids: number[] = [];
  #items: (T | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#ids.length - this.#head;
  }

  push(id: number, item: T): void {
    this.#ids.push(id);
    this.#items.push(item);
  }

  /** The oldest entry, or undefined. */
  head(): T | undefined {
    return this.#head < this.#ids.length ? this.#items[this.#head] : undefined;
  }

  has(id: number): boolean {
    for (let i = this.#head; i < this.#ids.length; i++) if (this.#ids[i] === id) return true;
    return false;
  }

  /** Removes and returns the entry of `id`, or undefined when there is none. */
  take(id: number): T | undefined {
    if (this.#head < this.#ids.length && this.#ids[this.#head] === id) {
      const item = this.#items[this.#head];
      this.#items[this.#head] = undefined;
      this.#head++;
      this.#compact();
      return item;
    }
    for (let i = this.#head + 1; i < this.#ids.length; i++) {
      if (this.#ids[i] !== id) continue;
      const item = this.#items[i];
      this.#ids.splice(i, 1);
      this.#items.splice(i, 1);
      return item;
    }
    return undefined;
  }

  /** Every entry, oldest first; the queue is empty afterwards. */
  drain(): T[] {
    const all = this.#items.slice(this.#head) as T[];
    this.#ids = [];
    this.#items = [];
    this.#head = 0;
    return all;
  }

  #compact(): void {
    if (this.#head === this.#ids.length) {
      this.#ids.length = 0;
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#ids.length) {
      const items = this.#items;
      this.#ids = this.#ids.slice(this.#head);
      this.#items = items.slice(this.#head);
      items.fill(undefined); // emptied, a dead array in the old generation keeps no call alive
      this.#head = 0;
    }
  }
}
