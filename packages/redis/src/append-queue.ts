/**
 * Event appends gathered while the previous batch is on its way to Redis and sent as one script
 * call: one command (one write, one reply, one set of client objects) for all the events that
 * sessions made meanwhile. A batch is one atomic script; its events get ids in the order they were
 * appended, and each caller learns its own id only once Redis has acknowledged the whole batch.
 *
 * Once a batch missed its deadline (Redis stalls), appends fail at once instead of each waiting for
 * the deadline again: the transport then writes their events without an id. A PING, sent while that
 * lasts, ends it as soon as Redis answers.
 */

import type { Redis } from 'ioredis';
import { explain, RedisTimeoutError } from './connect.js';

/** KEYS: stream 1, index 1, stream 2, index 2, …; ARGV: max length, ttl ms, id 1, data 1, id 2, data 2, …. */
const APPEND_LUA = `local max, ttl, out = ARGV[1], ARGV[2], {}
for i = 1, #KEYS / 2 do
  local stream, index = KEYS[2 * i - 1], KEYS[2 * i]
  out[i] = redis.call('XADD', stream, 'MAXLEN', max, '0-*', 'd', ARGV[2 * i + 2])
  redis.call('PEXPIRE', stream, ttl)
  redis.call('SADD', index, ARGV[2 * i + 1])
  redis.call('PEXPIRE', index, ttl)
end
return out`;

/** Events per script call at most (the rest go in the next call). */
const MAX_BATCH = 256;

interface Pending {
  readonly stream: string;
  readonly index: string;
  readonly streamId: string;
  readonly data: string;
  readonly resolve: (entryId: string) => void;
  readonly reject: (error: unknown) => void;
}

interface AppendingRedis extends Redis {
  emcpAppendEvents(numberOfKeys: number, ...keysThenArgs: string[]): Promise<string[]>;
}

export class AppendQueue {
  readonly #redis: AppendingRedis;
  readonly #max: string;
  readonly #ttl: string;
  readonly #pending: Pending[] = [];
  #busy = false;
  /** Set while Redis is known not to answer (a batch missed its deadline, no answer since). */
  #stalled: RedisTimeoutError | undefined;
  #probing = false;

  constructor(redis: Redis, maxEvents: string, ttlMs: number) {
    const appending = redis as AppendingRedis;
    if (typeof appending.emcpAppendEvents !== 'function')
      redis.defineCommand('emcpAppendEvents', { lua: APPEND_LUA });
    this.#redis = appending;
    this.#max = maxEvents;
    this.#ttl = String(ttlMs);
  }

  /** Append `data` to the Redis stream `stream` (indexed in `index` as `streamId`); resolves with the entry id. */
  push(stream: string, index: string, streamId: string, data: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (this.#stalled !== undefined) {
        reject(this.#stalled);
        this.#probe();
        return;
      }
      this.#pending.push({ stream, index, streamId, data, resolve, reject });
      if (!this.#busy) {
        this.#busy = true;
        process.nextTick(this.#send);
      }
    });
  }

  readonly #send = (): void => {
    const batch = this.#pending.splice(0, this.#stalled === undefined ? MAX_BATCH : this.#pending.length);
    if (batch.length === 0 || this.#stalled !== undefined) {
      for (const p of batch) p.reject(this.#stalled);
      this.#busy = false;
      return;
    }
    const keys: string[] = [];
    const args: string[] = [this.#max, this.#ttl];
    for (const p of batch) {
      keys.push(p.stream, p.index);
      args.push(p.streamId, p.data);
    }
    Promise.resolve()
      .then(() => this.#redis.emcpAppendEvents(keys.length, ...keys, ...args))
      .then(
        (ids) => {
          this.#stalled = undefined;
          for (let i = 0; i < batch.length; i++) (batch[i] as Pending).resolve(String(ids[i]));
        },
        (error: unknown) => {
          const failure = explain(this.#redis, error);
          if (failure instanceof RedisTimeoutError) this.#stalled = failure;
          for (const p of batch) p.reject(failure);
        },
      )
      .finally(this.#send);
  };

  /** While stalled: one PING at a time; its answer ends the stall. */
  #probe(): void {
    if (this.#probing) return;
    this.#probing = true;
    this.#redis
      .ping()
      .then(
        () => {
          this.#stalled = undefined;
        },
        () => {},
      )
      .finally(() => {
        this.#probing = false;
      });
  }
}
