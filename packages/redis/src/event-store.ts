/**
 * The server's EventStore on Redis Streams: one Redis stream per logical SSE stream, trimmed to a
 * bounded length and expiring after a quiet period, plus one set per session naming its streams so
 * a session's end forgets them all. Entry ids are `0-N` with N given by Redis, so an event id is
 * `<streamId>.<N>`, like the in-memory store's. Appends go through an AppendQueue: the events made
 * while one batch is on its way are added by one atomic script (add, trim, push the expiry back,
 * index), and each is written to the client only after Redis acknowledged it.
 */

import type { EventStore, ReplayedEvents, StoredEvent } from '@entropic-mcp/server/http';
import type { Redis } from 'ioredis';
import { AppendQueue } from './append-queue.js';
import { explain, withinDeadline } from './connect.js';
import { isSafeId, Keys } from './keys.js';

export interface RedisEventStoreOptions {
  /** Key prefix shared by everything of one deployment. Default `emcp:`. */
  readonly keyPrefix?: string;
  /** Events kept per stream; older ones are trimmed first. Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** A stream untouched for this long expires. Default one hour. */
  readonly ttlMs?: number;
}

const SEQ = /^[0-9]{1,15}$/;

/** KEYS: stream, index; ARGV: stream id. */
const DELETE_LUA = `redis.call('DEL', KEYS[1])
return redis.call('SREM', KEYS[2], ARGV[1])`;

/** The connection with the drop script defined on it (ioredis sends EVALSHA, falling back to EVAL). */
interface ScriptedRedis extends Redis {
  emcpDeleteStream(stream: string, index: string, id: string): Promise<number>;
}

function withScripts(redis: Redis): ScriptedRedis {
  const scripted = redis as ScriptedRedis;
  if (typeof scripted.emcpDeleteStream !== 'function')
    redis.defineCommand('emcpDeleteStream', { numberOfKeys: 2, lua: DELETE_LUA });
  return scripted;
}

export class RedisEventStore implements EventStore {
  readonly #redis: ScriptedRedis;
  readonly #keys: Keys;
  readonly #maxEvents: string;
  readonly #ttlMs: number;
  readonly #appends: AppendQueue;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.#redis = withScripts(redis);
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    this.#maxEvents = String(positive(options.maxEventsPerStream, 1000, 'maxEventsPerStream'));
    this.#ttlMs = positive(options.ttlMs, 3_600_000, 'ttlMs');
    this.#appends = new AppendQueue(redis, this.#maxEvents, this.#ttlMs);
  }

  async append(streamId: string, data: string): Promise<string> {
    const key = this.#keys.eventStream(streamId);
    const index = this.#keys.eventStreamsOf(groupOf(streamId));
    const entryId = await this.#appends.push(key, index, streamId, data);
    return `${streamId}.${seqOf(String(entryId))}`;
  }

  async after(lastEventId: string): Promise<ReplayedEvents | undefined> {
    const dot = lastEventId.lastIndexOf('.');
    const streamId = lastEventId.slice(0, dot);
    const seqText = lastEventId.slice(dot + 1);
    if (dot <= 0 || !isSafeId(streamId) || !SEQ.test(seqText)) return undefined;
    const seq = Number(seqText);
    const key = this.#keys.eventStream(streamId);
    const replies = await this.#redis
      .pipeline()
      .xrange(key, `(0-${seq}`, '+')
      .xrevrange(key, '+', '-', 'COUNT', 1)
      .exec();
    const [rangeError, range] = replies?.[0] ?? [null, []];
    const [lastError, last] = replies?.[1] ?? [null, []];
    if (rangeError !== null) throw explain(this.#redis, rangeError);
    if (lastError !== null) throw explain(this.#redis, lastError);
    const entries = range as [string, string[]][];
    const newest = (last as [string, string[]][])[0];
    if (newest === undefined || seq > seqOf(newest[0])) return undefined;
    const oldest = entries[0];
    if (oldest !== undefined && seqOf(oldest[0]) !== seq + 1) return undefined; // trimmed past it
    const events: StoredEvent[] = [];
    for (const [id, fields] of entries) {
      const text = fieldOf(fields, 'd');
      if (text !== '') events.push({ id: `${streamId}.${seqOf(id)}`, data: text });
    }
    return { streamId, events };
  }

  async forget(prefix: string): Promise<void> {
    if (!prefix.endsWith('.'))
      throw new TypeError(`RedisEventStore.forget wants "<session>.", got ${JSON.stringify(prefix)}`);
    const index = this.#keys.eventStreamsOf(prefix.slice(0, -1));
    const members = await withinDeadline(this.#redis, this.#redis.smembers(index));
    const keys = members.filter(isSafeId).map((id) => this.#keys.eventStream(id));
    await withinDeadline(this.#redis, this.#redis.del(index, ...keys));
  }

  async delete(streamId: string): Promise<void> {
    const index = this.#keys.eventStreamsOf(groupOf(streamId));
    await withinDeadline(
      this.#redis,
      this.#redis.emcpDeleteStream(this.#keys.eventStream(streamId), index, streamId),
    );
  }
}

/** The session part of a stream id (`<session>.<n>` → `<session>`). */
function groupOf(streamId: string): string {
  const dot = streamId.lastIndexOf('.');
  return dot > 0 ? streamId.slice(0, dot) : streamId;
}

function seqOf(entryId: string): number {
  return Number(entryId.slice(entryId.indexOf('-') + 1));
}

function fieldOf(fields: string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1] as string;
  return '';
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`RedisEventStore: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
