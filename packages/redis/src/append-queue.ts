/**
 * Event appends gathered while the previous batch is on its way to Redis and sent as one script
 * call: one command (one write, one reply, one set of client objects) for all the events that
 * sessions made meanwhile. A batch is one atomic script; its events get ids in the order they were
 * appended, and each caller learns its own id only once Redis has acknowledged the whole batch.
 *
 * A stream's last event completes it: the script packs the stream into one string (its events, the
 * requests it answers) kept for the retention window, and drops the Redis stream and its index entry.
 * A Redis stream of two events costs about 4.4 KB, the packed string about 300 bytes.
 *
 * Once a batch missed its deadline (Redis stalls), appends fail at once instead of each waiting for
 * the deadline again: the transport then writes their events without an id. A PING, sent while that
 * lasts, ends it as soon as Redis answers.
 */

import type { Redis } from 'ioredis';
import { explain, RedisTimeoutError } from './connect.js';

/**
 * KEYS: stream 1, index 1, stream 2, index 2, …; ARGV: max length, ttl ms, retention ms, the length of
 * the key prefix, then for each event: stream id, data, `l` (the stream's last event), `r` and the JSON
 * of the requests it answers (its first event), or nothing, and the least sequence number it may take
 * (or nothing). A complete stream's packed form, at the stream's key with `evc:` for `ev:`: `<last seq>
 * <requests>\n`, then `<seq> <byte length>\n<data>` per event.
 *
 * The least sequence number is one past the last id the writer was given on the stream: when the log
 * is gone (a Redis restarted empty, an expired key), the event is numbered after it rather than from 1
 * again, so that no id is given twice in a stream. An event Redis numbered lower is taken out and added
 * again with that number.
 */
const APPEND_LUA = `local max, ttl, retain, cut, out = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), {}
for i = 1, #KEYS / 2 do
  local stream, index = KEYS[2 * i - 1], KEYS[2 * i]
  local id, data, mode, floor = ARGV[4 * i + 1], ARGV[4 * i + 2], ARGV[4 * i + 3], ARGV[4 * i + 4]
  if mode == 'l' then
    local packed = string.sub(stream, 1, cut) .. 'evc:' .. string.sub(stream, cut + 4)
    local parts, seq, req = {}, 0, ''
    for _, entry in ipairs(redis.call('XRANGE', stream, '-', '+')) do
      seq = tonumber(string.sub(entry[1], 3))
      local fields, d = entry[2], ''
      for j = 1, #fields, 2 do
        if fields[j] == 'd' then d = fields[j + 1] elseif fields[j] == 'r' then req = fields[j + 1] end
      end
      parts[#parts + 1] = seq .. ' ' .. #d .. '\\n' .. d
    end
    seq = seq + 1
    if floor ~= '' and tonumber(floor) > seq then seq = tonumber(floor) end
    parts[#parts + 1] = seq .. ' ' .. #data .. '\\n' .. data
    local value = seq .. ' ' .. req .. '\\n' .. table.concat(parts)
    if redis.call('SET', packed, value, 'PX', retain, 'NX') then
      redis.call('DEL', stream)
      redis.call('SREM', index, id)
      out[i] = '0-' .. seq
    else
      out[i] = '0-' .. string.match(redis.call('GET', packed), '^%d+')
    end
  else
    local fields = {'d', data}
    if mode ~= '' then fields = {'d', data, 'r', string.sub(mode, 2)} end
    local added = redis.call('XADD', stream, 'MAXLEN', max, '0-*', unpack(fields))
    if floor ~= '' and tonumber(string.sub(added, 3)) < tonumber(floor) then
      redis.call('XDEL', stream, added)
      added = redis.call('XADD', stream, 'MAXLEN', max, '0-' .. floor, unpack(fields))
    end
    out[i] = added
    redis.call('PEXPIRE', stream, ttl)
    redis.call('SADD', index, id)
    redis.call('PEXPIRE', index, ttl)
  end
end
return out`;

/** Events per script call at most (the rest go in the next call). */
const MAX_BATCH = 256;

/** Where one event goes and what it says besides its data. */
export interface AppendTarget {
  readonly stream: string;
  readonly index: string;
  readonly streamId: string;
  /** `l` for a stream's last event, `r` and the JSON of the requests it answers, or ''. */
  readonly mode: string;
  /** The least sequence number the event may take (one past the writer's last id), or ''. */
  readonly floor: string;
}

interface Pending {
  readonly target: AppendTarget;
  readonly data: string;
  readonly resolve: (entryId: string) => void;
  readonly reject: (error: unknown) => void;
}

interface AppendingRedis extends Redis {
  emcpAppendEvents(numberOfKeys: number, ...keysThenArgs: string[]): Promise<string[]>;
}

export class AppendQueue {
  readonly #redis: AppendingRedis;
  readonly #head: string[];
  readonly #pending: Pending[] = [];
  #busy = false;
  /** Set while Redis is known not to answer (a batch missed its deadline, no answer since). */
  #stalled: RedisTimeoutError | undefined;
  #probing = false;

  constructor(redis: Redis, maxEvents: string, ttlMs: number, retentionMs: number, prefix: string) {
    const appending = redis as AppendingRedis;
    if (typeof appending.emcpAppendEvents !== 'function')
      redis.defineCommand('emcpAppendEvents', { lua: APPEND_LUA });
    this.#redis = appending;
    this.#head = [maxEvents, String(ttlMs), String(retentionMs), String(prefix.length)];
  }

  /** Append `data` where `target` says; resolves with the entry id (`0-N`). */
  push(target: AppendTarget, data: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (this.#stalled !== undefined) {
        reject(this.#stalled);
        this.#probe();
        return;
      }
      this.#pending.push({ target, data, resolve, reject });
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
    const args: string[] = [...this.#head];
    for (const { target, data } of batch) {
      keys.push(target.stream, target.index);
      args.push(target.streamId, data, target.mode, target.floor);
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
