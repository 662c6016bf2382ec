/**
 * The server's TaskStore on Redis, so a task made through one process can be read, answered,
 * cancelled and finished through any other. One hash per task (its JSON, a version for
 * compare-and-set, the node running it) that Redis expires at the task's TTL; per owner (a digest of
 * the owner key) a sorted set of its tasks for listing and one of its unfinished tasks for the limit
 * (the sets that keep its finished tasks within the server's caps, and trim the expired, are in
 * task-caps.ts); one pub/sub channel naming every task that changed. Each step is one atomic script. Whether the
 * process running a task is alive comes from the processes' liveness keys (node-liveness.ts, the rule
 * every part of this package uses): a task whose process is gone reads as such, and the server then
 * marks it failed.
 */

import { createHash } from 'node:crypto';
import type { FinishedLimits, StoredTask, TaskPage, TaskRecord, TaskStore } from '@entropic-mcp/server';
import type { Redis } from 'ioredis';
import { ChannelListeners } from './channel-listeners.js';
import { withinDeadline } from './connect.js';
import { isSafeId, Keys } from './keys.js';
import { NodeLiveness } from './node-liveness.js';
import { defineFinish, finish, ownerSets, TRIM_LUA } from './task-caps.js';

export interface RedisTaskStoreOptions {
  readonly keyPrefix?: string;
  /** This process's id (the shared state's node id). */
  readonly nodeId: string;
  /**
   * Which processes are alive (the shared state's). Without one the store keeps this process's key
   * itself, with `nodeTtlMs` (default 10,000).
   */
  readonly liveness?: NodeLiveness;
  readonly nodeTtlMs?: number;
  readonly onError?: (error: Error) => void;
}

/**
 * KEYS: task, active set, owner's set, then the owner's other sets (task-caps.ts). ARGV: json, ttl ms,
 * (unused), limit, task id, node, node key prefix, task key prefix, created at. Drops the owner's
 * expired and orphaned entries first. Expiry is by Redis's clock (TIME), never the clock of the
 * process asking: processes whose clocks disagree agree on when a task ends. The `#!lua` line makes
 * Redis refuse the whole script while it is out of memory (without it, the clean-up's writes let the
 * rest through: a task stored whose every later write is refused).
 */
const CREATE_LUA = `#!lua
${TRIM_LUA}
local active = KEYS[2]
local now = redis_now()
local expires = now + tonumber(ARGV[2])
trim({active = active, owned = KEYS[3], exp = KEYS[4], done = KEYS[5], sizes = KEYS[6], dropped = KEYS[7]}, now)
redis.call('ZREMRANGEBYSCORE', active, '-inf', now)
local count = 0
for _, id in ipairs(redis.call('ZRANGE', active, 0, -1)) do
  local node = redis.call('HGET', ARGV[8] .. id, 'n')
  if node and redis.call('EXISTS', ARGV[7] .. node) == 1 then
    count = count + 1
  else
    redis.call('ZREM', active, id)
  end
end
if count >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'v', 1, 'n', ARGV[6])
redis.call('PEXPIREAT', KEYS[1], expires)
redis.call('ZADD', active, expires, ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[9], ARGV[5])
redis.call('ZADD', KEYS[4], expires, ARGV[5])
for _, key in ipairs({active, KEYS[3], KEYS[4]}) do
  if redis.call('PEXPIRETIME', key) < expires then redis.call('PEXPIREAT', key, expires) end
end
return 1`;

/** KEYS: task. ARGV: node key prefix. The JSON, the version, and whether its node is alive. */
const READ_LUA = `
local r = redis.call('HMGET', KEYS[1], 'd', 'v', 'n')
if not r[1] then return false end
return {r[1], r[2], redis.call('EXISTS', ARGV[1] .. r[3])}`;

/** KEYS: task, active set. ARGV: json, version read, finished (1/0), task id, channel. */
const WRITE_LUA = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'v', tonumber(v) + 1)
if ARGV[3] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], ARGV[4])
return 1`;

interface ScriptedRedis extends Redis {
  emcpTaskCreate(task: string, active: string, ...ownerSetsThenArgv: string[]): Promise<number>;
  emcpTaskRead(task: string, nodePrefix: string): Promise<[string, string, number] | null>;
  emcpTaskWrite(task: string, active: string, ...argv: string[]): Promise<number>;
}

function withScripts(redis: Redis): ScriptedRedis {
  const scripted = redis as ScriptedRedis;
  if (typeof scripted.emcpTaskCreate !== 'function') {
    redis.defineCommand('emcpTaskCreate', { numberOfKeys: 7, lua: CREATE_LUA });
    redis.defineCommand('emcpTaskRead', { numberOfKeys: 1, lua: READ_LUA });
    redis.defineCommand('emcpTaskWrite', { numberOfKeys: 2, lua: WRITE_LUA });
  }
  defineFinish(redis);
  return scripted;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const CURSOR = /^([0-9]{1,16})\/([A-Za-z0-9_.-]{1,200})$/;

/** Owner keys hold anything (a principal, a session id): digested to fit a key name. */
function ownerDigest(owner: string): string {
  return createHash('sha256').update(owner).digest('hex').slice(0, 40);
}

export class RedisTaskStore implements TaskStore {
  readonly nodeId: string;
  readonly liveness: NodeLiveness;
  /** Whether this store keeps the liveness key itself (no shared liveness was given). */
  readonly #ownLiveness: boolean;
  readonly #redis: ScriptedRedis;
  readonly #keys: Keys;
  readonly #changes: ChannelListeners<string>;
  #ready: Promise<unknown> | undefined;

  /** `redis` carries commands; `subscriber` is a connection in subscriber mode (shared with other listeners). */
  constructor(redis: Redis, subscriber: Redis, options: RedisTaskStoreOptions) {
    this.#redis = withScripts(redis);
    this.#keys = new Keys(options.keyPrefix ?? 'emcp:');
    this.nodeId = options.nodeId;
    this.#ownLiveness = options.liveness === undefined;
    this.liveness =
      options.liveness ??
      new NodeLiveness(redis, {
        keyPrefix: options.keyPrefix,
        nodeId: options.nodeId,
        ttlMs: options.nodeTtlMs,
      });
    this.#changes = new ChannelListeners(subscriber, this.#keys.taskChannel, {
      decode: (taskId) => taskId,
      onError: options.onError ?? (() => {}),
    });
  }

  /** Start listening for changes (and this process's liveness key, when the store keeps it). */
  ready(): Promise<unknown> {
    this.#ready ??= this.#ownLiveness
      ? Promise.all([this.#changes.ready(), this.liveness.start()])
      : this.#changes.ready();
    return this.#ready;
  }

  async create(task: StoredTask, limit: number): Promise<boolean> {
    const owner = ownerDigest(task.owner);
    const created = await withinDeadline(
      this.#redis,
      this.#redis.emcpTaskCreate(
        this.#keys.task(task.taskId),
        this.#keys.activeTasksOf(owner),
        ...ownerSets(this.#keys, owner),
        JSON.stringify(task),
        String(task.ttlMs),
        '',
        String(limit),
        task.taskId,
        task.node,
        this.#keys.nodePrefix,
        this.#keys.taskPrefix,
        String(task.createdAt),
      ),
    );
    return created === 1;
  }

  async read(taskId: string): Promise<TaskRecord | undefined> {
    if (!isSafeId(taskId)) return undefined;
    const reply = await this.#redis.emcpTaskRead(this.#keys.task(taskId), this.#keys.nodePrefix);
    if (reply === null) return undefined;
    const [json, version, alive] = reply;
    const task = JSON.parse(json) as StoredTask;
    return { task, version: Number(version), runnerAlive: alive === 1 };
  }

  async write(task: StoredTask, version: number, keep?: FinishedLimits): Promise<boolean> {
    if (!isSafeId(task.taskId)) return false;
    if (keep !== undefined && FINISHED.has(task.status))
      return finish(this.#redis, this.#keys, ownerDigest(task.owner), task, version, keep);
    const written = await this.#redis.emcpTaskWrite(
      this.#keys.task(task.taskId),
      this.#keys.activeTasksOf(ownerDigest(task.owner)),
      JSON.stringify(task),
      String(version),
      FINISHED.has(task.status) ? '1' : '0',
      task.taskId,
      this.#keys.taskChannel,
    );
    return written === 1;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const key = this.#keys.tasksOf(ownerDigest(owner));
    let max = '+inf';
    let after: { score: number; id: string } | undefined;
    if (cursor !== undefined) {
      const match = CURSOR.exec(cursor);
      if (match === null) return undefined;
      after = { score: Number(match[1]), id: match[2] as string };
      max = String(after.score);
    }
    const tasks: StoredTask[] = [];
    let offset = 0;
    for (;;) {
      const batch = await this.#redis.zrevrangebyscore(
        key,
        max,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        offset,
        limit + 16,
      );
      if (batch.length === 0) return { tasks };
      offset += batch.length / 2;
      const entries: { id: string; score: number }[] = [];
      for (let i = 0; i < batch.length; i += 2) {
        const id = batch[i] as string;
        const score = Number(batch[i + 1]);
        // Past the cursor: strictly older, or as old with a smaller id (the set's order within a score).
        if (after !== undefined && score === after.score && id >= after.id) continue;
        entries.push({ id, score });
      }
      const found = await this.#fetch(entries.map((e) => e.id));
      const gone: string[] = [];
      for (const [i, entry] of entries.entries()) {
        const task = found[i];
        if (task === undefined || task.owner !== owner) gone.push(entry.id);
        else if (tasks.length < limit) tasks.push(task);
        else return { tasks, nextCursor: cursorOf(tasks) };
      }
      if (gone.length > 0) await this.#redis.zrem(key, ...gone);
      offset -= gone.length;
    }
  }

  subscribe(listener: (taskId: string) => void): () => void {
    return this.#changes.subscribe(listener);
  }

  /** Stop listening (and the liveness key it keeps: other processes then see its tasks as orphaned). */
  async close(): Promise<void> {
    this.#changes.clear();
    if (this.#ownLiveness) await this.liveness.stop().catch(() => undefined);
  }

  /**
   * Whether the process `node` is gone, by the shared rule (its key absent twice, two refresh
   * intervals apart); when Redis cannot tell, it is presumed running. A read answers at once with the
   * heartbeat as it is now; the server asks this in the background before it fails the task.
   */
  async runnerGone(node: string): Promise<boolean> {
    try {
      return await this.liveness.isGone(node);
    } catch {
      return false;
    }
  }

  /** The tasks of `ids`, in order (undefined for those that expired). */
  async #fetch(ids: string[]): Promise<(StoredTask | undefined)[]> {
    if (ids.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hget(this.#keys.task(id), 'd');
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, json]) => {
      if (error !== null) throw error;
      return typeof json === 'string' ? (JSON.parse(json) as StoredTask) : undefined;
    });
  }
}

function cursorOf(tasks: StoredTask[]): string | undefined {
  const last = tasks.at(-1);
  return last === undefined ? undefined : `${last.createdAt}/${last.taskId}`;
}
