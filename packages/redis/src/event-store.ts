/**
 * The server's EventStore on Redis Streams: one Redis stream per logical SSE stream, trimmed to a
 * bounded length and expiring after a quiet period, plus one set per session naming its streams so
 * a session's end forgets them all. Entry ids are `0-N` with N given by Redis (never below one past
 * the writer's last id, so a log Redis lost is numbered on, not again), so an event id is
 * `<streamId>.<N>`, like the in-memory store's. Appends go through an AppendQueue: the events made
 * while one batch is on its way are added by one atomic script (add, trim, push the expiry back,
 * index), and each is written to the client only after Redis acknowledged it. A stream's last event
 * packs it into one string that stays resumable for the retention window (see append-queue.ts).
 */

import type { AppendOptions, EventStore, ReplayedEvents, StoredEvent } from '@entropic-mcp/server/http';
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
  /** How long a complete stream (its last event stored) stays resumable. Default 60,000 ms. */
  readonly retentionMs?: number;
}

const SEQ = /^[0-9]{1,15}$/;

/** KEYS: stream, index, packed; ARGV: stream id. */
const DELETE_LUA = `redis.call('DEL', KEYS[1], KEYS[3])
return redis.call('SREM', KEYS[2], ARGV[1])`;

/**
 * KEYS: stream, packed; ARGV: the sequence number resumed after. Read in one script, so an append
 * that completes the stream meanwhile is seen whole or not at all.
 * Returns {'c', packed} for a complete stream, {'s', newest id, oldest entry, entries after} for an
 * open one, {} when neither exists.
 */
const REPLAY_LUA = `local packed = redis.call('GET', KEYS[2])
if packed then return {'c', packed} end
local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #newest == 0 then return {} end
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
return {'s', newest[1][1], oldest[1], redis.call('XRANGE', KEYS[1], '(0-' .. ARGV[1], '+')}`;

type Entry = [Buffer, Buffer[]];

/** The connection with the scripts defined on it (ioredis sends EVALSHA, falling back to EVAL). */
interface ScriptedRedis extends Redis {
  emcpDeleteStream(stream: string, index: string, packed: string, id: string): Promise<number>;
  emcpReplayBuffer(stream: string, packed: string, seq: string): Promise<unknown[]>;
}

function withScripts(redis: Redis): ScriptedRedis {
  const scripted = redis as ScriptedRedis;
  if (typeof scripted.emcpDeleteStream !== 'function')
    redis.defineCommand('emcpDeleteStream', { numberOfKeys: 3, lua: DELETE_LUA });
  if (typeof scripted.emcpReplayBuffer !== 'function')
    redis.defineCommand('emcpReplay', { numberOfKeys: 2, lua: REPLAY_LUA });
  return scripted;
}

export class RedisEventStore implements EventStore {
  readonly #redis: ScriptedRedis;
  readonly #keys: Keys;
  readonly #appends: AppendQueue;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.#redis = withScripts(redis);
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    const maxEvents = String(positive(options.maxEventsPerStream, 1000, 'maxEventsPerStream'));
    const ttlMs = positive(options.ttlMs, 3_600_000, 'ttlMs');
    const retentionMs = positive(options.retentionMs, 60_000, 'retentionMs');
    this.#appends = new AppendQueue(redis, maxEvents, ttlMs, retentionMs, this.#keys.prefix);
  }

  async append(streamId: string, data: string, options?: AppendOptions): Promise<string> {
    const target = {
      stream: this.#keys.eventStream(streamId),
      index: this.#keys.eventStreamsOf(groupOf(streamId)),
      streamId,
      mode: modeOf(options),
      floor: floorOf(streamId, options?.previous),
    };
    const entryId = await this.#appends.push(target, data);
    return `${streamId}.${seqOf(String(entryId))}`;
  }

  async after(lastEventId: string): Promise<ReplayedEvents | undefined> {
    const dot = lastEventId.lastIndexOf('.');
    const streamId = lastEventId.slice(0, dot);
    const seqText = lastEventId.slice(dot + 1);
    if (dot <= 0 || !isSafeId(streamId) || !SEQ.test(seqText)) return undefined;
    const seq = Number(seqText);
    const stream = this.#keys.eventStream(streamId);
    const packed = this.#keys.completeStream(streamId);
    let reply: unknown[];
    try {
      reply = await this.#redis.emcpReplayBuffer(stream, packed, seqText);
    } catch (error) {
      throw explain(this.#redis, error);
    }
    const kind = String(reply[0]);
    if (kind === 'c') return unpack(streamId, reply[1] as Buffer, seq);
    if (kind !== 's') return undefined;
    const [, newest, oldest, range] = reply as [unknown, Buffer, Entry, Entry[]];
    if (seq > seqOf(String(newest))) return undefined;
    const first = range[0];
    if (first !== undefined && seqOf(String(first[0])) !== seq + 1) return undefined; // trimmed past it
    const events: StoredEvent[] = [];
    for (const [id, fields] of range) {
      const text = fieldOf(fields, 'd');
      if (text !== '') events.push({ id: `${streamId}.${seqOf(String(id))}`, data: text });
    }
    return withRequests({ streamId, events, complete: false }, fieldOf(oldest[1], 'r'));
  }

  async forget(prefix: string): Promise<void> {
    if (!prefix.endsWith('.'))
      throw new TypeError(`RedisEventStore.forget wants "<session>.", got ${JSON.stringify(prefix)}`);
    const index = this.#keys.eventStreamsOf(prefix.slice(0, -1));
    const members = await withinDeadline(this.#redis, this.#redis.smembers(index));
    const keys = members.filter(isSafeId).map((id) => this.#keys.eventStream(id));
    await withinDeadline(this.#redis, this.#redis.del(index, ...keys));
  }

  /** Forget one stream at once (the HTTP transport never does: complete streams are retained). */
  async delete(streamId: string): Promise<void> {
    const index = this.#keys.eventStreamsOf(groupOf(streamId));
    const keys = [this.#keys.eventStream(streamId), index, this.#keys.completeStream(streamId)] as const;
    await withinDeadline(this.#redis, this.#redis.emcpDeleteStream(...keys, streamId));
  }
}

/** What the append script is told of an event besides its data (see append-queue.ts). */
function modeOf(options: AppendOptions | undefined): string {
  if (options?.last === true) return 'l';
  return options?.requests === undefined ? '' : `r${JSON.stringify(options.requests)}`;
}

/** One past the sequence number of `previous` when it is an id of `streamId` (see append-queue.ts), or ''. */
function floorOf(streamId: string, previous: string | undefined): string {
  if (previous === undefined || !previous.startsWith(`${streamId}.`)) return '';
  const seq = previous.slice(streamId.length + 1);
  return SEQ.test(seq) ? String(Number(seq) + 1) : '';
}

/** A complete stream's events after `seq`, from its packed form (see append-queue.ts). */
function unpack(streamId: string, packed: Buffer, seq: number): ReplayedEvents | undefined {
  let at = packed.indexOf(10);
  const header = packed.toString('utf8', 0, at);
  const space = header.indexOf(' ');
  if (seq > Number(header.slice(0, space))) return undefined;
  const events: StoredEvent[] = [];
  let oldest: number | undefined;
  while (at + 1 < packed.length) {
    const line = packed.indexOf(10, at + 1);
    const [seqText, lengthText] = packed.toString('latin1', at + 1, line).split(' ');
    const n = Number(seqText);
    const end = line + 1 + Number(lengthText);
    oldest ??= n;
    if (n > seq && end > line + 1)
      events.push({ id: `${streamId}.${n}`, data: packed.toString('utf8', line + 1, end) });
    at = end - 1;
  }
  if (oldest !== undefined && oldest > seq + 1) return undefined; // trimmed past it
  return withRequests({ streamId, events, complete: true }, header.slice(space + 1));
}

function withRequests(found: ReplayedEvents, requests: string): ReplayedEvents {
  if (requests === '') return found;
  try {
    const parsed: unknown = JSON.parse(requests);
    return Array.isArray(parsed) ? { ...found, requests: parsed } : found;
  } catch {
    return found;
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

function fieldOf(fields: readonly (Buffer | string)[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (String(fields[i]) === name) return String(fields[i + 1]);
  return '';
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`RedisEventStore: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
