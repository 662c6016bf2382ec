/**
 * How much of each owner's tasks RedisTaskStore keeps: the finished tasks' outcomes within the server's
 * caps (`FinishedLimits`: a count, and the bytes of their JSON), and the owner's sets trimmed of expired
 * tasks whenever a task is created or finishes, a bounded number at a time. Per owner (a digest) besides
 * its list and running sets: every task by expiry (`tasks-exp:`), the finished ones holding their outcome
 * in the order they finished (`tasks-done:`) with their sizes (`tasks-size:`), and those whose outcome was
 * dropped (`tasks-dropped:`). A finished task's hash keeps, beside its JSON, the same JSON without its
 * outcome (`s`); dropping the outcome puts that in its place, marked `evicted` with the cap.
 */

import type { FinishedLimits, StoredTask } from '@entropic-mcp/server';
import type { Keys } from './keys.js';

/** Expired tasks dropped from an owner's sets per creation or finish (each creation adds one). */
const TRIM_BATCH = 64;

/**
 * Lua: `trim(k)` drops from the owner's sets (KEYS offsets in `k`) the tasks that expired by `now`, at
 * most TRIM_BATCH of them; `redis_now()` is Redis's clock in ms (expiry is never the asking process's
 * clock). Shared by the create and finish scripts.
 */
export const TRIM_LUA = `
local function redis_now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function trim(k, now)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k.exp, '-inf', now, 'LIMIT', 0, ${TRIM_BATCH})) do
    for _, set in ipairs({k.exp, k.owned, k.active, k.done, k.dropped}) do redis.call('ZREM', set, id) end
    local bytes = redis.call('HGET', k.sizes, id)
    if bytes then
      redis.call('HDEL', k.sizes, id)
      redis.call('HINCRBY', k.sizes, '=', -tonumber(bytes))
    end
  end
end`;

/**
 * KEYS: task, active, owned, exp, done, sizes, dropped. ARGV: json, version read, task id, channel, the
 * JSON without its outcome, (unused), max tasks, max bytes, task key prefix. Writes the finished task if
 * its version is still the one read, then keeps the owner within the caps. Times are Redis's: now, and
 * the task's expiry as its key holds it.
 */
const FINISH_LUA = `${TRIM_LUA}
local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'v', tonumber(v) + 1, 's', ARGV[5])
redis.call('ZREM', KEYS[2], ARGV[3])
local k = {active = KEYS[2], owned = KEYS[3], exp = KEYS[4], done = KEYS[5], sizes = KEYS[6], dropped = KEYS[7]}
local expires = redis.call('PEXPIRETIME', KEYS[1])
trim(k, redis_now())
local maxTasks, maxBytes = tonumber(ARGV[7]), tonumber(ARGV[8])
local function drop(id, limit, value)
  local bytes = redis.call('HGET', k.sizes, id)
  if bytes then
    redis.call('HDEL', k.sizes, id)
    redis.call('HINCRBY', k.sizes, '=', -tonumber(bytes))
  end
  redis.call('ZREM', k.done, id)
  local key = ARGV[9] .. id
  local bare = redis.call('HGET', key, 's')
  if not bare then return end
  local marked = string.sub(bare, 1, -2) .. ',"evicted":{"limit":"' .. limit .. '","value":' .. value .. '}}'
  redis.call('HSET', key, 'd', marked, 'v', tonumber(redis.call('HGET', key, 'v')) + 1)
  redis.call('HDEL', key, 's')
  redis.call('ZADD', k.dropped, redis.call('HINCRBY', k.sizes, '#', 1), id)
  while redis.call('ZCARD', k.dropped) > maxTasks do
    local oldest = redis.call('ZPOPMIN', k.dropped)[1]
    redis.call('DEL', ARGV[9] .. oldest)
    redis.call('ZREM', k.owned, oldest)
  end
end
local size = string.len(ARGV[1])
if size > maxBytes then
  drop(ARGV[3], 'maxFinishedBytesPerPrincipal', ARGV[8])
else
  redis.call('ZADD', k.done, redis.call('HINCRBY', k.sizes, '#', 1), ARGV[3])
  redis.call('HSET', k.sizes, ARGV[3], size)
  redis.call('HINCRBY', k.sizes, '=', size)
  while true do
    local oldest = redis.call('ZRANGE', k.done, 0, 0)[1]
    if not oldest then
      redis.call('HSET', k.sizes, '=', 0)
      break
    end
    if redis.call('ZCARD', k.done) > maxTasks then
      drop(oldest, 'maxFinishedTasksPerPrincipal', ARGV[7])
    elseif tonumber(redis.call('HGET', k.sizes, '=') or '0') > maxBytes then
      drop(oldest, 'maxFinishedBytesPerPrincipal', ARGV[8])
    else
      break
    end
  end
end
for _, key in ipairs({k.done, k.sizes, k.dropped}) do
  if redis.call('PEXPIRETIME', key) < expires then redis.call('PEXPIREAT', key, expires) end
end
redis.call('PUBLISH', ARGV[4], ARGV[3])
return 1`;

interface FinishingRedis {
  emcpTaskFinish(...keysThenArgv: string[]): Promise<number>;
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
}

/** Define the finish script on `redis` (once). */
export function defineFinish(redis: object): void {
  const scripted = redis as FinishingRedis;
  if (typeof scripted.emcpTaskFinish !== 'function') {
    scripted.defineCommand('emcpTaskFinish', { numberOfKeys: 7, lua: FINISH_LUA });
  }
}

/** The owner's sets the scripts keep, in the order they take them after the task key and the running set. */
export function ownerSets(keys: Keys, owner: string): string[] {
  return [
    keys.tasksOf(owner),
    keys.expiringTasksOf(owner),
    keys.finishedTasksOf(owner),
    keys.finishedSizesOf(owner),
    keys.droppedTasksOf(owner),
  ];
}

/** Write the finished `task` (read at `version`) and keep its owner (digest `owner`) within `keep`. */
export async function finish(
  redis: object,
  keys: Keys,
  owner: string,
  task: StoredTask,
  version: number,
  keep: FinishedLimits,
): Promise<boolean> {
  const { result: _result, error: _error, ...bare } = task;
  const written = await (redis as FinishingRedis).emcpTaskFinish(
    keys.task(task.taskId),
    keys.activeTasksOf(owner),
    ...ownerSets(keys, owner),
    JSON.stringify(task),
    String(version),
    task.taskId,
    keys.taskChannel,
    JSON.stringify(bare),
    '',
    String(keep.maxTasks),
    String(keep.maxBytes),
    keys.taskPrefix,
  );
  return written === 1;
}
