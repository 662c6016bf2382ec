/**
 * Tasks across processes: two `entropic-mcp serve --http --redis` behind HAProxy (round robin, no
 * stickiness). A task made through one process is polled, answered, cancelled and read through the
 * other; a process running a task is SIGKILLed and the survivor reports the task failed, saying why;
 * and the SDK v1 client runs 2025-11-25 tasks through the proxy, whichever process each request reaches.
 */

import { type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import { modernRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { waitForValue } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_TOOLS, textOf } from './support/serve-helpers.js';

const NODE_TIMEOUT_MS = 1500;
let cluster: ScaleCluster;
let ids = 0;

beforeAll(async () => {
  cluster = await startScaleCluster(2, {
    mcp: [
      '  tools_modules:',
      `    - path: ${TASK_TOOLS}`,
      '      task_support: { "*": optional, tasks.stopped: forbidden }',
      '  tasks:',
      '    poll_interval_ms: 100',
      '    sync_window_ms: 0',
      `  node_timeout_ms: ${NODE_TIMEOUT_MS}`,
    ],
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** One 2026-07-28 request to `url` (the proxy or one process): its result and who served it. */
async function call(url: string, method: string, params: Record<string, unknown>) {
  const answer = await modernRequest(url, ++ids, method, params);
  const served = answer.headers['x-served-by'];
  if (answer.message?.error !== undefined)
    throw new Error(`${method}: ${JSON.stringify(answer.message.error)}`);
  return {
    result: (answer.message?.result ?? {}) as Record<string, unknown>,
    served: served as string | undefined,
  };
}

/** The node other than `served`'s, as an URL of its own (past the proxy). */
function other(served: string | undefined): string {
  const mine = cluster.node(served);
  const found = cluster.nodes.find((n) => n !== mine);
  if (found === undefined) throw new Error('no other node');
  return found.url;
}

function until(url: string, taskId: string, done: (task: Record<string, unknown>) => boolean) {
  return waitForValue(
    async () => {
      const { result } = await call(url, 'tasks/get', { taskId });
      return done(result) ? result : undefined;
    },
    `task ${taskId} to get there`,
    30_000,
  );
}

describe('tasks through HAProxy and two serve processes on Redis', () => {
  it('a task made through one process is polled, answered, cancelled and read through the other', async () => {
    const endpoint = cluster.endpoint;
    const build = await call(endpoint, 'tools/call', { name: 'tasks.build', arguments: { steps: 5 } });
    expect(build.result).toMatchObject({ resultType: 'task', status: 'working' });
    const buildId = build.result.taskId as string;
    const creatorPid = String(cluster.node(build.served).child.pid);
    // Polled through the proxy until the other process answers, then to the end through the other.
    for (let i = 0; i < 10; i++) {
      const polled = await call(endpoint, 'tasks/get', { taskId: buildId });
      expect(polled.result.taskId).toBe(buildId);
      if (polled.served !== build.served) break;
    }
    const built = await until(other(build.served), buildId, (t) => t.status === 'completed');
    expect(textOf(built.result)).toBe(`built in 5 steps by ${creatorPid}`);

    const approve = await call(endpoint, 'tools/call', { name: 'tasks.approve', arguments: {} });
    const approveId = approve.result.taskId as string;
    const elsewhere = other(approve.served);
    const waiting = await until(elsewhere, approveId, (t) => t.status === 'input_required');
    const key = Object.keys(waiting.inputRequests as object)[0] as string;
    expect(
      (
        await call(elsewhere, 'tasks/update', {
          taskId: approveId,
          inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
        })
      ).result,
    ).toMatchObject({ resultType: 'complete' });
    const approved = await until(elsewhere, approveId, (t) => t.status === 'completed');
    expect(textOf(approved.result)).toBe(`approved in ${cluster.node(approve.served).child.pid}`);

    const hold = await call(endpoint, 'tools/call', { name: 'tasks.hold', arguments: {} });
    const holdId = hold.result.taskId as string;
    const runner = cluster.node(hold.served).url;
    expect((await call(other(hold.served), 'tasks/cancel', { taskId: holdId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect(await until(other(hold.served), holdId, (t) => t.status !== 'working')).toMatchObject({
      status: 'cancelled',
    });
    // The handler in the process that ran it was stopped.
    await expect
      .poll(
        async () =>
          textOf((await call(runner, 'tools/call', { name: 'tasks.stopped', arguments: {} })).result),
        { timeout: 5000 },
      )
      .toMatch(/:1$/);
  }, 60_000);

  it('a task whose process is SIGKILLed reads failed from the survivor, saying why', async () => {
    const hold = await call(cluster.endpoint, 'tools/call', { name: 'tasks.hold', arguments: {} });
    const taskId = hold.result.taskId as string;
    const victim = cluster.nodes.indexOf(cluster.node(hold.served));
    const survivor = other(hold.served);
    expect((await call(survivor, 'tasks/get', { taskId })).result).toMatchObject({ status: 'working' });
    const killedAt = Date.now();
    await cluster.kill(victim);
    const failed = await until(survivor, taskId, (t) => t.status !== 'working');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: -32603 });
    expect((failed.error as { message: string }).message).toMatch(
      /the process running this task \(node .+\) stopped before the task finished/,
    );
    expect(Date.now() - killedAt).toBeLessThan(NODE_TIMEOUT_MS + 5000);
    await cluster.restart(victim);
  }, 60_000);

  it('the SDK v1 client runs 2025-11-25 tasks through the proxy, whichever process each request reaches', async () => {
    const client = new Client(
      { name: 'tasks-scale', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.endpoint)));
    try {
      await client.listTools();
      const tasks = client.experimental.tasks;
      const results: string[] = [];
      for (const name of ['tasks.build', 'tasks.approve']) {
        let last: { type: string; result?: unknown } | undefined;
        for await (const m of tasks.callToolStream({ name, arguments: {} })) last = m;
        expect(last?.type, `${name}: ${JSON.stringify(last)}`).toBe('result');
        results.push(textOf(last?.result));
      }
      expect(results[0]).toMatch(/^built in 3 steps by \d+$/);
      expect(results[1]).toMatch(/^approved in \d+$/);
      const stream = tasks.callToolStream({ name: 'tasks.hold', arguments: {} })[Symbol.asyncIterator]();
      const created = (await stream.next()).value as { task: { taskId: string } };
      expect(await tasks.cancelTask(created.task.taskId)).toMatchObject({ status: 'cancelled' });
      await stream.return?.(undefined);
      expect((await tasks.listTasks()).tasks).toHaveLength(3);
    } finally {
      await client.close();
    }
  }, 60_000);
});
