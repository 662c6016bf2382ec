/**
 * Which server processes are running, as Redis knows it. Each process keeps a key of its own alive
 * (`<prefix>node:<id>`, set again every fifth of its time to live); a process that stops (killed,
 * crashed, cut off from Redis) stops setting it, and the key expires. A process is taken for gone only
 * when its key is absent twice, two refresh intervals apart: after Redis comes back from a stall or a
 * restart (keys expired or lost meanwhile), every running process sets its key again within one
 * interval. And only while the asking process's own key is there: a Redis that refuses writes (out of
 * memory, a read-only replica) lets every key lapse, and then absence says nothing about a process.
 * A process that stops cleanly removes its key.
 */

import type { Redis } from 'ioredis';
import { withinDeadline } from './connect.js';
import { Keys } from './keys.js';

export interface NodeLivenessOptions {
  readonly keyPrefix?: string;
  /** This process's tag. */
  readonly nodeId: string;
  /** How long a process's key outlives its last refresh (ms). Default 10,000. */
  readonly ttlMs?: number;
}

export class NodeLiveness {
  readonly #redis: Redis;
  readonly #keys: Keys;
  readonly #nodeId: string;
  readonly #ttlMs: number;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(redis: Redis, options: NodeLivenessOptions) {
    this.#redis = redis;
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    this.#nodeId = options.nodeId;
    this.#ttlMs = options.ttlMs ?? 10_000;
    if (!Number.isInteger(this.#ttlMs) || this.#ttlMs < 1000)
      throw new TypeError(`nodeTtlMs must be an integer of at least 1000 (ms), got ${String(options.ttlMs)}`);
    this.#intervalMs = Math.floor(this.#ttlMs / 5);
  }

  /** Set this process's key, then keep it alive until `stop`. */
  async start(): Promise<void> {
    await this.#refresh();
    this.#timer = setInterval(() => void this.#refresh().catch(() => {}), this.#intervalMs);
    this.#timer.unref();
  }

  /**
   * Whether the process `nodeId` is gone: its key absent now and again two refresh intervals later,
   * while this process's own key is there. Rejects when Redis cannot tell (unreachable, or not keeping
   * this process's key either): the caller then presumes it running.
   */
  async isGone(nodeId: string): Promise<boolean> {
    if (await this.#exists(nodeId)) return false;
    await new Promise((resolve) => setTimeout(resolve, 2 * this.#intervalMs));
    return !(await this.#exists(nodeId));
  }

  /** Stop refreshing and remove this process's key (its calls are lost from now on). */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await withinDeadline(this.#redis, this.#redis.del(this.#keys.node(this.#nodeId)));
  }

  async #refresh(): Promise<void> {
    const key = this.#keys.node(this.#nodeId);
    await withinDeadline(this.#redis, this.#redis.set(key, String(Date.now()), 'PX', this.#ttlMs));
  }

  /** Whether `nodeId`'s key is there; rejects when this process's own key is not (Redis cannot tell). */
  async #exists(nodeId: string): Promise<boolean> {
    const own = this.#keys.node(this.#nodeId);
    const [theirs, mine] = await withinDeadline(this.#redis, this.#redis.mget(this.#keys.node(nodeId), own));
    if (theirs !== null) return true;
    if (mine === null)
      throw new Error(
        `cannot tell whether process ${nodeId} runs: Redis does not hold this process's key either`,
      );
    return false;
  }
}
