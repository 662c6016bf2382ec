/**
 * Serve processes whose wall clocks are wrong, on one Redis (which keeps the true time): node0 runs
 * 10 minutes slow and node1 10 minutes fast under libfaketime, node2 on time. What they share follows
 * Redis's clock, not theirs: a task lives its TTL (5 minutes here) whichever process made it, the
 * running-task limit holds across them, a sealed `requestState` made by one is accepted by the
 * other, the newest GET stream of a session holds it, and each skewed process says so in its log
 * and in its metrics.
 */

import { type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import { faketimeEnv } from '@entropic-mcp/test-kit/faketime';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { modernRequest, openLegacySession, openSse, type SseReader } from '@entropic-mcp/test-kit/raw-mcp';
import { waitFor, waitForValue } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../redis/src/index.js';
import { TASK_TOOLS } from './support/serve-helpers.js';

const TTL_MS = 300_000;
const SKEW = ['-10m', '+10m', undefined] as const;
let cluster: ScaleCluster;
let redis: Awaited<ReturnType<typeof connectRedis>>;
let metricsPort = 0;
let ids = 0;

beforeAll(async () => {
  metricsPort = await freePort();
  cluster = await startScaleCluster(3, {
    mcp: [
      '  tools_modules:',
      `    - path: ${TASK_TOOLS}`,
      '      task_support: { "*": optional, tasks.stopped: forbidden, tasks.approve: forbidden }',
      '  tasks:',
      `    default_ttl_ms: ${TTL_MS}`,
      '    max_per_principal: 2',
      '    poll_interval_ms: 100',
      '    sync_window_ms: 0',
    ],
    perNode: (i) => {
      const offset = SKEW[i];
      const args = i === 0 ? ['--metrics', `127.0.0.1:${metricsPort}`] : [];
      return offset === undefined ? { args } : { args, env: faketimeEnv(offset) };
    },
  });
  redis = await connectRedis(cluster.redis.url);
}, 120_000);

afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

const url = (i: number) => (cluster.nodes[i] as { url: string }).url;

async function call(node: number, method: string, params: Record<string, unknown>, caps?: object) {
  const answer = await modernRequest(url(node), ++ids, method, params, caps as Record<string, unknown>);
  if (answer.message?.error !== undefined)
    throw new Error(`${method} on node${node}: ${JSON.stringify(answer.message.error)}`);
  return (answer.message?.result ?? {}) as Record<string, unknown>;
}

describe('serve processes with skewed clocks on one Redis', () => {
  it('a task lives its TTL by Redis clock, whichever process made it, and says when it was made', async () => {
    for (const maker of [0, 1]) {
      const made = await call(maker, 'tools/call', { name: 'tasks.build', arguments: { steps: 2 } });
      const taskId = made.taskId as string;
      expect(made).toMatchObject({ resultType: 'task' });
      // Readable from the process on time, to the end and after it.
      const done = await waitForValue(
        async () => {
          const task = await call(2, 'tasks/get', { taskId });
          return task.status === 'completed' ? task : undefined;
        },
        `task ${taskId} completed`,
        15_000,
      );
      expect(Math.abs(Date.parse(done.createdAt as string) - Date.now())).toBeLessThan(30_000);
      const ttl = await redis.pttl(`emcp:task:${taskId}`);
      expect(ttl, `node${maker}'s task expires in ${ttl} ms`).toBeGreaterThan(TTL_MS - 30_000);
      expect(ttl, `node${maker}'s task expires in ${ttl} ms`).toBeLessThanOrEqual(TTL_MS);
    }
  });

  it('the running-task limit holds across processes whose clocks disagree', async () => {
    const held: string[] = [];
    try {
      for (let i = 0; i < 2; i++)
        held.push((await call(2, 'tools/call', { name: 'tasks.hold', arguments: {} })).taskId as string);
      for (const node of [1, 0]) {
        const answer = await modernRequest(url(node), ++ids, 'tools/call', {
          name: 'tasks.hold',
          arguments: {},
        });
        const taskId = (answer.message?.result as { taskId?: string } | undefined)?.taskId;
        if (taskId !== undefined) held.push(taskId);
        expect(answer.message?.error, `node${node} let a third task run`).toMatchObject({
          message: expect.stringMatching(/^Too many tasks/),
        });
      }
    } finally {
      for (const taskId of held) await call(2, 'tasks/cancel', { taskId }).catch(() => undefined);
    }
  });

  it('a sealed requestState made by one process is accepted by another whose clock differs', async () => {
    for (const [sealer, opener] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const caps = { elicitation: {} };
      const first = await call(sealer, 'tools/call', { name: 'tasks.approve', arguments: {} }, caps);
      expect(first).toMatchObject({ resultType: 'input_required' });
      const key = Object.keys(first.inputRequests as object)[0] as string;
      const done = await call(
        opener,
        'tools/call',
        {
          name: 'tasks.approve',
          arguments: {},
          requestState: first.requestState,
          inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
        },
        caps,
      );
      expect(done).toMatchObject({ content: [{ text: expect.stringMatching(/^approved in \d+$/) }] });
    }
  });

  it("a session's newest GET stream holds it, though its process's clock is behind", async () => {
    const auth = {};
    const session = await openLegacySession(url(1), auth);
    const key = `emcp:sess:${session}`;
    const streams: SseReader[] = [];
    try {
      streams.push(await openSse(url(1), 'GET', session));
      const first = await waitForValue(
        async () => (await redis.hget(key, 'g')) ?? undefined,
        'the first claim',
        15_000,
      );
      streams.push(await openSse(url(0), 'GET', session));
      const second = await waitForValue(
        async () => {
          const now = await redis.hget(key, 'g');
          return now !== null && now !== first ? now : undefined;
        },
        'the second claim',
        5000,
      );
      expect(second).not.toBe(first);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('each skewed process reports its skew in its log and its metrics; the one on time does not', async () => {
    await waitFor(
      () => /this process's clock is/.test(cluster.nodes[0]?.stderr() ?? ''),
      'the skew warnings',
      15_000,
    );
    expect(cluster.nodes[0]?.stderr()).toMatch(/this process's clock is (59\d|60\d)\.\d s behind Redis/);
    expect(cluster.nodes[1]?.stderr()).toMatch(/this process's clock is (59\d|60\d)\.\d s ahead of Redis/);
    expect(cluster.nodes[2]?.stderr()).not.toMatch(/this process's clock is/);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const skew = /^mcp_redis_clock_skew_seconds(?:\{[^}]*\})? (\S+)/m.exec(text);
    expect(skew, text.slice(0, 2000)).not.toBeNull();
    expect(Number(skew?.[1])).toBeCloseTo(-600, -1);
  });
});
