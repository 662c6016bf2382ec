/**
 * `entropic-mcp serve` with `task_support` in its YAML: a C plugin tool (the crashy fixture's `sleep`,
 * isolated) and tools-module tools run as tasks in both eras — 2026-07-28 over raw HTTP, 2025-11-25
 * through the official SDK v1 client's experimental tasks API — and cancelling the task of a C call
 * cancels the call (its host is killed and restarted, as for any cancelled call).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { modernRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { waitFor, waitForValue } from '@entropic-mcp/test-kit/wait';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostsSleeping } from './support/plugin-hosts.js';
import {
  connectHttp,
  type HttpServer,
  REPO_ROOT,
  runServe,
  startHttp,
  TASK_TOOLS,
  tempDir,
  textOf,
} from './support/serve-helpers.js';

const SLOW = join(REPO_ROOT, 'examples', 'plugins', 'slow', 'build', 'slow.so');
let server: HttpServer;
let ids = 0;

beforeAll(async () => {
  const dir = tempDir('serve-tasks');
  const config = join(dir, 'entropic.yaml');
  writeFileSync(
    config,
    [
      'mcp:',
      '  plugins:',
      `    - path: ${fixture('crashy')}`,
      '      timeout_ms: 120000',
      '      task_support: { sleep: optional }',
      `    - path: ${SLOW}`,
      '      task_support: optional',
      '  tools_modules:',
      `    - path: ${TASK_TOOLS}`,
      '      task_support: { "*": optional, tasks.stopped: forbidden }',
      '  tasks:',
      '    poll_interval_ms: 100',
      '    sync_window_ms: 0',
      '',
    ].join('\n'),
  );
  server = await startHttp(['--config', config]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

type Message = Record<string, unknown> | undefined;
const resultOf = (message: Message) => (message?.result ?? {}) as Record<string, unknown>;

async function modern(method: string, params: Record<string, unknown>) {
  return resultOf((await modernRequest(server.url, ++ids, method, params)).message);
}

async function settle(taskId: string, until: (status: unknown) => boolean): Promise<Record<string, unknown>> {
  return watch(taskId, (task) => until(task.status));
}

async function watch(
  taskId: string,
  until: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return waitForValue(
    async () => {
      const task = await modern('tasks/get', { taskId });
      return until(task) ? task : undefined;
    },
    `task ${taskId} to settle`,
    30_000,
  );
}

describe('serve task_support', () => {
  it('runs a C plugin tool as a 2026-07-28 task, and cancelling the task cancels the call', async () => {
    const created = await modern('tools/call', { name: 'crashy.sleep', arguments: { ms: 300 } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 100 });
    const done = await settle(created.taskId as string, (s) => s !== 'working');
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'slept' }] },
    });
    // Its other tools stay as they were; without the extension the same tool answers directly.
    expect(await modern('tools/call', { name: 'crashy.echo', arguments: {} })).toMatchObject({
      resultType: 'complete',
    });
    const direct = await modernRequest(
      server.url,
      ++ids,
      'tools/call',
      { name: 'crashy.sleep', arguments: { ms: 1 } },
      {},
    );
    expect(resultOf(direct.message)).toMatchObject({ resultType: 'complete', content: [{ text: 'slept' }] });

    const before = JSON.parse(
      textOf(
        resultOf(
          (await modernRequest(server.url, ++ids, 'tools/call', { name: 'crashy.state', arguments: {} }))
            .message,
        ),
      ),
    );
    const long = await modern('tools/call', { name: 'crashy.sleep', arguments: { ms: 60_000 } });
    await waitFor(
      () => hostsSleeping(server.child.pid as number) === 1,
      20_000,
      'the call inside the plugin',
    );
    expect(await modern('tasks/cancel', { taskId: long.taskId })).toMatchObject({ resultType: 'complete' });
    expect(await settle(long.taskId as string, (s) => s !== 'working')).toMatchObject({
      status: 'cancelled',
    });
    // The host that ran the call was killed and a new one serves: its call count started again.
    const after = JSON.parse(
      textOf(
        resultOf(
          (await modernRequest(server.url, ++ids, 'tools/call', { name: 'crashy.state', arguments: {} }))
            .message,
        ),
      ),
    );
    expect(before.calls).toBeGreaterThan(1);
    expect(after.calls).toBe(1);
  }, 60_000);

  it("turns a C plugin's progress into the status message of its task, and a cancel stops its count", async () => {
    const created = await modern('tools/call', { name: 'slow.count', arguments: { to: 200, delay_ms: 50 } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const reporting = await watch(
      created.taskId as string,
      (t) => t.status !== 'working' || t.statusMessage !== undefined,
    );
    expect(reporting).toMatchObject({
      status: 'working',
      statusMessage: expect.stringMatching(/^counted \d+ of 200$/),
    });
    expect(await modern('tasks/cancel', { taskId: created.taskId })).toMatchObject({
      resultType: 'complete',
    });
    expect(await settle(created.taskId as string, (s) => s !== 'working')).toMatchObject({
      status: 'cancelled',
    });
    // The plugin stopped counting when the call was cancelled (its one instance would otherwise be busy
    // for the 9 s of count left), and its host goes on serving.
    const started = Date.now();
    const again = await modern('tools/call', { name: 'slow.count', arguments: { to: 2, delay_ms: 1 } });
    const done =
      again.resultType === 'task'
        ? await settle(again.taskId as string, (s) => s !== 'working')
        : { result: again };
    expect(done.result).toMatchObject({ structuredContent: { count: 2, cancelled: false } });
    expect(Date.now() - started).toBeLessThan(5000);
  }, 60_000);

  it('runs the same C tool and a tools-module tool as 2025-11-25 tasks through the SDK v1 client', async () => {
    const client = await connectHttp(server.url);
    try {
      const { tools } = await client.listTools();
      const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
      expect(support).toMatchObject({
        'crashy.sleep': 'optional',
        'crashy.echo': undefined,
        'tasks.build': 'optional',
        'tasks.stopped': 'forbidden',
      });
      const tasks = client.experimental.tasks;
      const stream: { type: string; task?: { taskId: string }; result?: unknown }[] = [];
      for await (const m of tasks.callToolStream({ name: 'crashy.sleep', arguments: { ms: 300 } }))
        stream.push(m);
      expect(stream[0]?.type).toBe('taskCreated');
      expect(stream.at(-1)).toMatchObject({ type: 'result', result: { content: [{ text: 'slept' }] } });
      const taskId = stream[0]?.task?.taskId as string;
      expect(await tasks.getTaskResult(taskId, CallToolResultSchema)).toMatchObject({
        content: [{ text: 'slept' }],
      });

      const built: { type: string; task?: { statusMessage?: string }; result?: unknown }[] = [];
      for await (const m of tasks.callToolStream({ name: 'tasks.build', arguments: { steps: 4 } }))
        built.push(m);
      expect(built.some((m) => /^step \d of 4/.test(m.task?.statusMessage ?? ''))).toBe(true);
      expect(textOf((built.at(-1) as { result: unknown }).result)).toMatch(/^built in 4 steps/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses at start a task_support that names a tool the plugin does not have', async () => {
    const dir = tempDir('serve-tasks-bad');
    const config = join(dir, 'entropic.yaml');
    writeFileSync(
      config,
      `mcp:\n  plugins:\n    - path: ${fixture('crashy')}\n      task_support: { slep: optional }\n`,
    );
    const run = await runServe(['--config', config]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /task_support of .*crashy\.so names "slep", which plugin "crashy" does not have \(its tools: echo, state, sleep/,
    );
  }, 60_000);
});
