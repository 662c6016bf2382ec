/**
 * The handler-slot leak of 2025-11-25 tasks, on the Redis task store against a real redis-server: a burst of
 * task creations from one official SDK v1 client, larger than `maxConcurrency`, leaves other clients'
 * tools/call, resources/read and prompts/get answered over Streamable HTTP (the memory store's and stdio's runs
 * are `packages/server/test/tasks-slots.test.ts`).
 */

import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../server/src/http/index.js';
import { McpServer } from '../../server/src/index.js';
import { registerBurst } from '../../server/test/fixtures/tasks/burst.mjs';
import { httpClient, plainCalls, taskBurst, within } from '../../server/test/support/task-burst.js';
import { connectRedis, RedisTaskStore } from '../src/index.js';

const SLOTS = 8;
let redisServer: RedisProcess;
let redis: Redis;
let subscriber: Redis;

beforeAll(async () => {
  redisServer = await startRedis();
  redis = await connectRedis(redisServer.url);
  subscriber = await connectRedis(redisServer.url);
});

afterAll(async () => {
  redis?.disconnect();
  subscriber?.disconnect();
  await redisServer?.stop();
});

describe('a burst of 2025-11-25 tasks on the Redis task store holds no handler slot once created', () => {
  it(`${SLOTS * 3} tasks with ${SLOTS} slots, then other clients are answered`, async () => {
    const store = new RedisTaskStore(redis, subscriber, { keyPrefix: 'burst:', nodeId: 'burst-node' });
    await store.ready();
    const mcp = registerBurst(
      new McpServer(
        { name: 'task-burst', version: '1.0.0' },
        { maxConcurrency: SLOTS, tasks: { store, maxTasksPerPrincipal: 256, pollIntervalMs: 50 } },
      ),
    );
    const handle = await serveHttp(mcp, { port: 0 });
    const clients: { close(): Promise<void> }[] = [];
    const connect = async (name: string) => {
      const client = await httpClient(handle.url, name);
      clients.push(client);
      return client;
    };
    try {
      const burst = taskBurst(await connect('burster'), SLOTS * 3, 0);
      await burst.created(SLOTS, 20_000);
      for (const name of ['alice', 'bob', 'carol']) await plainCalls(await connect(name), name, 10_000);
      await burst.created(SLOTS * 3, 20_000);
      expect(await within(burst.ended, 30_000, 'the end of every task of the burst')).toEqual(
        Array(SLOTS * 3).fill('result'),
      );
      await plainCalls(await connect('dave'), 'dave', 10_000);
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
      await handle.close();
      await store.close();
    }
  }, 90_000);
});
