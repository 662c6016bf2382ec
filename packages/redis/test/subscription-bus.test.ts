/** RedisSubscriptionBus on a real Redis: a change in one process reaches listeners in another; junk is ignored. */

import { McpServer, type SubscriptionEvent } from '@entropic-mcp/server';
import { type RedisProcess, startRedis } from '@entropic-mcp/test-kit/redis-server';
import { quietPeriod, waitFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, createRedisSharedState, type RedisSharedState } from '../src/index.js';

let redis: RedisProcess;
let raw: Redis;
const states: RedisSharedState[] = [];

beforeAll(async () => {
  redis = await startRedis();
  raw = await connectRedis(redis.url);
  for (const nodeId of ['a', 'b']) states.push(await createRedisSharedState(redis.url, { nodeId }));
});

afterAll(async () => {
  for (const s of states) await s.close();
  raw?.disconnect();
  await redis?.stop();
});

const until = (check: () => boolean, what: string): Promise<void> => waitFor(check, what);

describe('RedisSubscriptionBus', () => {
  it('a tool added in one server reaches listeners of another process, in order; junk is dropped', async () => {
    const [a, b] = states as [RedisSharedState, RedisSharedState];
    const seen: SubscriptionEvent[] = [];
    const stop = b.subscriptionBus.subscribe((event) => seen.push(event));
    await b.subscriptionBus.ready();
    const server = new McpServer({ name: 'a', version: '1' }, { subscriptionBus: a.subscriptionBus });
    await raw.publish('emcp:chan:subscriptions', '{"type":"rm -rf"}');
    await raw.publish('emcp:chan:subscriptions', 'not json');
    server.addTool({ name: 'late' }, () => ({ content: [] }));
    await until(() => seen.length >= 1, 'the list change');
    await a.subscriptionBus.publish({ type: 'resourceUpdated', uri: 'file:///x' });
    await until(() => seen.length >= 2, 'two events');
    expect(seen).toEqual([{ type: 'toolsListChanged' }, { type: 'resourceUpdated', uri: 'file:///x' }]);
    stop();
    await a.subscriptionBus.publish({ type: 'promptsListChanged' });
    await quietPeriod(100); // a listener that stopped hears nothing more
    expect(seen).toHaveLength(2);
  });
});
