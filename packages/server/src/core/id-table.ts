/**
 * The requests of a session in flight, by JSON-RPC id: an open-addressing hash table over arrays that are only
 * replaced to grow or shrink, instead of a `Map`.
 *
 * Why not a `Map`: a map that takes and drops one entry per request rebuilds its table every few dozen requests,
 * and V8 links each dropped table to the next one. Once one of them has reached the old generation, every later
 * table and every request they held survive young collections until the next full one, and so do the objects
 * those requests point to (arguments, results, a plugin call's books): at 64 calls in flight that was about
 * half a megabyte promoted per scavenge. Here a dropped slot is cleared, deletion shifts its neighbours back
 * (no tombstones, no rebuild), and arrays given up on growth are emptied first, so no dead array keeps a young
 * request alive.
 */
import type { RequestId } from './handler-types.js';

const MIN_CAPACITY = 16;
/**
 * Tables no larger than this never shrink: a session's requests in flight swing between none and a full window
 * many times a second, and a table resized on every swing would make garbage of its own.
 */
const KEEP_CAPACITY = 1024;

/** Spreads the bits of a 32-bit hash over the low ones, which pick the slot. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x45d9f3b);
  return h ^ (h >>> 16);
}

export class IdTable<V> {
  #keys: (RequestId | undefined)[];
  #values: (V | undefined)[];
  #hashes: Int32Array;
  #mask: number;
  #size = 0;
  /** Per table, so that ids chosen to collide on one server do not collide on another. */
  readonly #seed = (Math.random() * 0x7fffffff) | 0;

  constructor() {
    this.#keys = new Array<RequestId | undefined>(MIN_CAPACITY).fill(undefined);
    this.#values = new Array<V | undefined>(MIN_CAPACITY).fill(undefined);
    this.#hashes = new Int32Array(MIN_CAPACITY);
    this.#mask = MIN_CAPACITY - 1;
  }

  get size(): number {
    return this.#size;
  }

  has(id: RequestId): boolean {
    return this.#find(id, this.#hash(id)) >= 0;
  }

  get(id: RequestId): V | undefined {
    const at = this.#find(id, this.#hash(id));
    return at < 0 ? undefined : this.#values[at];
  }

  set(id: RequestId, value: V): void {
    const hash = this.#hash(id);
    const at = this.#find(id, hash);
    if (at >= 0) {
      this.#values[at] = value;
      return;
    }
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#resize((this.#mask + 1) * 2);
    this.#place(id, value, hash);
    this.#size++;
  }

  /** Removes the entry of `id`, only when it holds `value` if one is given; true when one was removed. */
  delete(id: RequestId, value?: V): boolean {
    const at = this.#find(id, this.#hash(id));
    if (at < 0 || (value !== undefined && this.#values[at] !== value)) return false;
    this.#remove(at);
    this.#size--;
    const capacity = this.#mask + 1;
    if (capacity > KEEP_CAPACITY && this.#size * 8 < capacity) this.#resize(capacity / 2);
    return true;
  }

  /** The values, in no particular order. */
  values(): V[] {
    const out: V[] = [];
    for (let i = 0; i <= this.#mask; i++) if (this.#keys[i] !== undefined) out.push(this.#values[i] as V);
    return out;
  }

  clear(): void {
    this.#keys.fill(undefined);
    this.#values.fill(undefined);
    this.#size = 0;
  }

  #hash(id: RequestId): number {
    if (typeof id === 'number' && (id | 0) === id) return mix(id ^ this.#seed);
    // Any other number hashes as its text; `===` still tells 1.5 from "1.5".
    const text = typeof id === 'string' ? id : String(id);
    let h = this.#seed ^ text.length;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return mix(h);
  }

  #find(id: RequestId, hash: number): number {
    const keys = this.#keys;
    const mask = this.#mask;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const key = keys[at];
      if (key === undefined) return -1;
      if (key === id) return at;
    }
  }

  #place(id: RequestId, value: V, hash: number): void {
    const mask = this.#mask;
    let at = hash & mask;
    while (this.#keys[at] !== undefined) at = (at + 1) & mask;
    this.#keys[at] = id;
    this.#values[at] = value;
    this.#hashes[at] = hash;
  }

  /** Empties slot `at` and moves back the entries after it that would no longer be found (linear probing). */
  #remove(at: number): void {
    const keys = this.#keys;
    const values = this.#values;
    const hashes = this.#hashes;
    const mask = this.#mask;
    let hole = at;
    for (let next = (hole + 1) & mask; keys[next] !== undefined; next = (next + 1) & mask) {
      const home = hashes[next]! & mask;
      // The entry stays when its home lies cyclically in (hole, next]; otherwise it fills the hole.
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (stays) continue;
      keys[hole] = keys[next];
      values[hole] = values[next];
      hashes[hole] = hashes[next]!;
      hole = next;
    }
    keys[hole] = undefined;
    values[hole] = undefined;
  }

  #resize(capacity: number): void {
    const keys = this.#keys;
    const values = this.#values;
    const hashes = this.#hashes;
    this.#keys = new Array<RequestId | undefined>(capacity).fill(undefined);
    this.#values = new Array<V | undefined>(capacity).fill(undefined);
    this.#hashes = new Int32Array(capacity);
    this.#mask = capacity - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== undefined) this.#place(key, values[i] as V, hashes[i]!);
    }
    // The old arrays may sit in the old generation: emptied, they keep no young request alive.
    keys.fill(undefined);
    values.fill(undefined);
  }
}
