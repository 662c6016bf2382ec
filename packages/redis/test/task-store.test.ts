/**
 * RedisTaskStore against a real redis-server: the shared TaskStore suite, the task outcome suite through a
 * server, then what only Redis adds.
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTaskOptions, Tasks } from '../../server/src/core/tasks/service.js';
import { McpServer } from '../../server/src/index.js';
import { initializedPeer } from '../../server/test/support/in-memory.js';
import { modernPeer } from '../../server/test/support/modern.js';
import {
  legacyFinished,
  legacyTask,
  outcomeServer,
  taskServerSuite,
} from '../../server/test/support/task-server-suite.js';
import { storedTask, taskStoreSuite } from '../../server/test/support/task-store-suite.js';
import { connectRedis, RedisTaskStore } from '../src/index.js';

let server_: RedisProcess;
let redis: Redis;
let subscriber: Redis;
let prefixes = 0;

beforeAll(async () => {
  server_ = await startRedis();
  redis = await connectRedis(server_.url);
  subscriber = await connectRedis(server_.url);
});

afterAll(async () => {
  redis?.disconnect();
  subscriber?.disconnect();
  await server_?.stop();
});

async function store(options: { keyPrefix?: string; nodeId?: string; nodeTtlMs?: number } = {}) {
  const made = new RedisTaskStore(redis, subscriber, {
    keyPrefix: options.keyPrefix ?? `t${++prefixes}:`,
    nodeId: options.nodeId ?? `node${prefixes}`,
    nodeTtlMs: options.nodeTtlMs,
  });
  await made.ready();
  return made;
}

taskStoreSuite('RedisTaskStore', { make: () => store() });
taskServerSuite('RedisTaskStore', { makeStore: () => store() });

describe('RedisTaskStore on Redis', () => {
  it('lets Redis expire a task at its TTL, and reads a task whose process stopped as orphaned', async () => {
    const a = await store({ keyPrefix: 'live:', nodeId: 'a', nodeTtlMs: 1000 });
    const b = await store({ keyPrefix: 'live:', nodeId: 'b', nodeTtlMs: 1000 });
    const task = storedTask('p:x', 'a', 60_000);
    await a.create(task, 4);
    const ttl = await redis.pttl(`live:task:${task.taskId}`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect((await b.read(task.taskId))?.runnerAlive).toBe(true);
    // Process a stops refreshing its node key (as if it died): b sees it within the liveness period.
    await a.liveness.stop();
    expect((await b.read(task.taskId))?.runnerAlive).toBe(false);
    // An orphaned task no longer counts against its owner's limit.
    expect(await b.create(storedTask('p:x', 'b'), 1)).toBe(true);
    await b.close();
  });

  it('answers a read of a task whose process stopped at once, and fails it once that is confirmed', async () => {
    const a = await store({ keyPrefix: 'orphan:', nodeId: 'a', nodeTtlMs: 10_000 });
    const b = await store({ keyPrefix: 'orphan:', nodeId: 'b', nodeTtlMs: 10_000 });
    const tasks = new Tasks(resolveTaskOptions({ store: b }));
    const task = storedTask('p:x', 'a', 60_000);
    await a.create(task, 4);
    await a.liveness.stop();
    // Confirming takes two refresh intervals (4 s here); the read answers before, with the task as it is.
    let confirmed = false;
    const confirming = b.runnerGone('a').then((gone) => {
      confirmed = true;
      return gone;
    });
    const first = await tasks.read(task.taskId);
    expect(confirmed, 'the read waited for the liveness rule').toBe(false);
    expect(first).toMatchObject({ runnerAlive: false, task: { status: 'working' } });
    expect(await confirming).toBe(true);
    await waitFor(async () => (await b.read(task.taskId))?.task.status === 'failed', 'the task failed');
    expect((await tasks.read(task.taskId))?.task.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /the process running this task \(node a\) stopped before the task finished/,
      ),
    });
    // A process whose heartbeat is there is never confirmed gone.
    expect(await b.runnerGone('b')).toBe(false);
    await tasks.close();
    await b.close();
  });

  it("trims an owner's sets of expired tasks as it creates new ones, so one that never lists does not grow them", async () => {
    const taskStore = await store({ keyPrefix: 'trim:' });
    // A long task keeps the owner active (its sets live as long as its latest task).
    await taskStore.create(storedTask('p:never-lists', taskStore.nodeId, 60_000), 1000);
    const short = Array.from({ length: 150 }, () => storedTask('p:never-lists', taskStore.nodeId, 1500));
    expect(await Promise.all(short.map((task) => taskStore.create(task, 1000)))).toEqual(
      short.map(() => true),
    );
    const [owned] = await redis.keys('trim:tasks-of:*');
    const [expiring] = await redis.keys('trim:tasks-exp:*');
    expect(await redis.zcard(owned as string)).toBe(151);
    await waitFor(
      async () => (await redis.exists(`trim:task:${short.at(-1)?.taskId}`)) === 0,
      'the short tasks to expire',
    );
    // Each creation drops a bounded batch (64) of the expired: three creations drop all 150.
    for (let i = 0; i < 3; i++) await taskStore.create(storedTask('p:never-lists', taskStore.nodeId), 1000);
    expect(await redis.zcard(owned as string)).toBe(4);
    expect(await redis.zcard(expiring as string)).toBe(4);
    await taskStore.close();
  });

  it('holds Redis memory to the finished-bytes cap: 30 results of 1 MiB with a 4 MiB cap', async () => {
    const taskStore = await store({ keyPrefix: 'weight:' });
    const server = outcomeServer(taskStore, { maxFinishedBytesPerPrincipal: 4 << 20 });
    const used = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
    const before = await used();
    const { peer } = await initializedPeer(server, {}, '2025-11-25');
    for (let i = 0; i < 30; i++) {
      await legacyFinished(peer, await legacyTask(peer, 'sized', { bytes: 1 << 20, tag: `w${i}` }));
    }
    const grown = (await used()) - before;
    // Uncapped, the same run grows Redis by more than 30 MiB.
    expect(grown).toBeLessThan(10 << 20);
    await server.close();
    await taskStore.close();
  }, 60_000);

  it('never reads another prefix, and treats ids that could name other keys as unknown', async () => {
    const mine = await store({ keyPrefix: 'mine:' });
    const theirs = await store({ keyPrefix: 'theirs:' });
    const task = storedTask('p:y', theirs.nodeId);
    await theirs.create(task, 4);
    expect(await mine.read(task.taskId)).toBeUndefined();
    for (const hostile of [
      `theirs:task:${task.taskId}`,
      `../${task.taskId}`,
      `${task.taskId}\r\nDEL x`,
      '*',
    ]) {
      expect(await mine.read(hostile)).toBeUndefined();
      expect(await theirs.read(hostile)).toBeUndefined();
    }
    expect(await theirs.list('p:y', 'theirs:1/x', 5)).toBeUndefined();
    await mine.close();
    await theirs.close();
  });

  it('hands a change to every listener of every process, even when one listener throws', async () => {
    const a = await store({ keyPrefix: 'heard:' });
    const b = await store({ keyPrefix: 'heard:' });
    const heard: string[] = [];
    const stopThrowing = b.subscribe(() => {
      throw new Error('a listener that fails');
    });
    const stop = b.subscribe((id) => heard.push(id));
    const task = storedTask('p:z', a.nodeId);
    await a.create(task, 4);
    const record = await a.read(task.taskId);
    expect(await a.write({ ...task, status: 'completed' }, record?.version ?? 0)).toBe(true);
    await waitFor(() => heard.length > 0, 'the change to be heard');
    expect(heard).toEqual([task.taskId]);
    stopThrowing();
    stop();
    await a.close();
    await b.close();
  });

  it('writes the outcome of a task that finished while Redis was away once it is back', async () => {
    const taskStore = await store({ keyPrefix: 'away:' });
    const server = new McpServer(
      { name: 'away', version: '1.0.0' },
      { tasks: { store: taskStore, syncWindowMs: 0 } },
    );
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.addTool({ name: 'job', execution: { taskSupport: 'optional' } }, async () => {
      await gate;
      return { content: [{ type: 'text', text: 'done while Redis was away' }] };
    });
    const peer = await modernPeer(server, { extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const created = await peer.modern('tools/call', { name: 'job' });
    const taskId = (created.result as { taskId: string }).taskId;
    await redis.save(); // the restarted server loads this snapshot: the task is still there
    await server_.kill();
    release();
    await holdFor(1500); // the fault held open: the handler ends and its write fails while Redis is away
    await server_.restart();
    let status: unknown;
    await waitFor(async () => {
      const got = await peer.modern('tasks/get', { taskId });
      status = (got.result as { status?: unknown } | undefined)?.status;
      return status === 'completed';
    }, 'the outcome written once Redis is back');
    expect(status).toBe('completed');
    const done = await peer.modern('tasks/get', { taskId });
    expect(done.result).toMatchObject({ result: { content: [{ text: 'done while Redis was away' }] } });
    await server.close();
    await taskStore.close();
  }, 30_000);
});
