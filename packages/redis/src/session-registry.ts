/**
 * The server's SessionRegistry on Redis: one hash per session (negotiated version, initialize params,
 * log level, the principal it is bound to, the GET stream holding its live GET connection) that
 * expires when the session is idle for its time to live, and is deleted on DELETE.
 */

import type { SessionRecord, SessionRegistry } from '@entropic-mcp/server/http';
import type { Redis } from 'ioredis';
import { explain, withinDeadline } from './connect.js';
import { isSafeId, Keys } from './keys.js';

export class RedisSessionRegistry implements SessionRegistry {
  readonly #redis: Redis;
  readonly #keys: Keys;

  constructor(redis: Redis, options: { readonly keyPrefix?: string } = {}) {
    this.#redis = redis;
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
  }

  async save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const key = this.#keys.session(sessionId);
    const fields: Record<string, string> = {
      v: record.protocolVersion,
      init: JSON.stringify(record.initialize),
    };
    if (record.logLevel !== undefined) fields.level = record.logLevel;
    if (record.principal !== undefined) fields.p = record.principal;
    const replies = await withinDeadline(
      this.#redis,
      this.#redis.multi().del(key).hset(key, fields).pexpire(key, ttlMs).exec(),
    );
    check(this.#redis, replies);
  }

  async load(sessionId: string): Promise<SessionRecord | undefined> {
    if (!isSafeId(sessionId)) return undefined; // never a session of ours: no key is built from it
    const fields = await withinDeadline(this.#redis, this.#redis.hgetall(this.#keys.session(sessionId)));
    if (fields.v === undefined || fields.init === undefined) return undefined;
    const initialize = JSON.parse(fields.init) as Record<string, unknown>;
    return {
      protocolVersion: fields.v,
      initialize,
      ...(fields.level === undefined ? {} : { logLevel: fields.level }),
      ...(fields.p === undefined ? {} : { principal: fields.p }),
    };
  }

  async setLogLevel(sessionId: string, level: string): Promise<void> {
    const key = this.#keys.session(sessionId);
    // Only a session that exists gets the field (a lone field would be a record without a version).
    await withinDeadline(this.#redis, this.#redis.eval(SET_IF_EXISTS, 1, key, 'level', level));
  }

  async touch(sessionId: string, ttlMs: number): Promise<void> {
    await withinDeadline(this.#redis, this.#redis.pexpire(this.#keys.session(sessionId), ttlMs));
  }

  /**
   * The GET stream holding the session's live GET connection since `at` (field `g`, `<at> <stream>`;
   * only on a session that exists, and never over a newer claim).
   */
  async setHolder(sessionId: string, streamId: string, at: number): Promise<void> {
    const key = this.#keys.session(sessionId);
    await withinDeadline(this.#redis, this.#redis.eval(CLAIM, 1, key, String(at), streamId));
  }

  async holder(sessionId: string): Promise<string | undefined> {
    if (!isSafeId(sessionId)) return undefined;
    const held = await withinDeadline(this.#redis, this.#redis.hget(this.#keys.session(sessionId), 'g'));
    return held === null ? undefined : held.slice(held.indexOf(' ') + 1);
  }

  async remove(sessionId: string): Promise<void> {
    await withinDeadline(this.#redis, this.#redis.del(this.#keys.session(sessionId)));
  }
}

/** KEYS: session; ARGV: time of the claim, stream id. */
const CLAIM = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local current = redis.call('HGET', KEYS[1], 'g')
if current and tonumber(string.match(current, '^%d+')) > tonumber(ARGV[1]) then return 0 end
return redis.call('HSET', KEYS[1], 'g', ARGV[1] .. ' ' .. ARGV[2])`;

const SET_IF_EXISTS =
  "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 0";

function check(redis: Redis, replies: [Error | null, unknown][] | null): void {
  if (replies === null) throw new Error('Redis discarded the transaction');
  for (const [error] of replies) if (error !== null) throw explain(redis, error);
}
