/**
 * The official SDK v1 client (1.32.2) drives 2025-11-25 tasks through `client.experimental.tasks`
 * against this server, over stdio (a child process) and Streamable HTTP: a task created and its
 * status streamed, an input request answered, the result fetched, another task cancelled and listed.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { register } from './fixtures/tasks/tools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RELATED = 'io.modelcontextprotocol/related-task';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((fn) => fn()));
});

type StreamMessage = {
  type: string;
  task?: { taskId: string; status: string; statusMessage?: string };
  result?: unknown;
  error?: unknown;
};

function newClient(asked: Record<string, unknown>[]): Client {
  const client = new Client(
    { name: 'tasks-interop', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as Record<string, unknown>);
    return { action: 'accept', content: { approve: true } };
  });
  return client;
}

async function collect(stream: AsyncIterable<StreamMessage>): Promise<StreamMessage[]> {
  const out: StreamMessage[] = [];
  for await (const message of stream) out.push(message);
  return out;
}

/** The same conversation over any transport; `stopped()` counts handlers the server saw aborted. */
async function converse(
  client: Client,
  asked: Record<string, unknown>[],
  stopped: () => number,
): Promise<void> {
  const tasks = client.experimental.tasks;
  const { tools } = await client.listTools(); // tells the client which tools run as tasks
  expect(tools.find((t) => t.name === 'deploy')?.execution).toEqual({ taskSupport: 'required' });

  const built = await collect(
    tasks.callToolStream({ name: 'build', arguments: { steps: 5 } }) as AsyncIterable<StreamMessage>,
  );
  expect(built[0]?.type).toBe('taskCreated');
  const buildId = built[0]?.task?.taskId as string;
  const statuses = built.filter((m) => m.type === 'taskStatus').map((m) => m.task);
  expect(statuses.some((t) => /^step \d of 5$/.test(t?.statusMessage ?? ''))).toBe(true);
  expect(statuses.at(-1)?.status).toBe('completed');
  expect(built.at(-1)).toMatchObject({ type: 'result', result: { content: [{ text: 'built in 5 steps' }] } });
  expect(await tasks.getTask(buildId)).toMatchObject({ taskId: buildId, status: 'completed' });
  const result = await tasks.getTaskResult(buildId, CallToolResultSchema);
  expect(result).toMatchObject({
    structuredContent: { steps: 5 },
    _meta: { [RELATED]: { taskId: buildId } },
  });

  const deployed = await collect(
    tasks.callToolStream({ name: 'deploy', arguments: { target: 'prod' } }) as AsyncIterable<StreamMessage>,
  );
  const deployId = deployed[0]?.task?.taskId as string;
  expect(deployed.at(-1)).toMatchObject({
    type: 'result',
    result: { content: [{ text: 'deployed to prod' }] },
  });
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ message: 'Deploy to prod?', _meta: { [RELATED]: { taskId: deployId } } });

  const crawl = tasks
    .callToolStream({ name: 'crawl', arguments: {} }, CallToolResultSchema, {
      task: { ttl: 60_000 },
    })
    [Symbol.asyncIterator]() as AsyncIterator<StreamMessage>;
  const created = (await crawl.next()).value as StreamMessage;
  const crawlId = created.task?.taskId as string;
  const cancelled = await tasks.cancelTask(crawlId);
  expect(cancelled).toMatchObject({ taskId: crawlId, status: 'cancelled' });
  const rest: StreamMessage[] = [];
  for (let next = await crawl.next(); !next.done; next = await crawl.next()) rest.push(next.value);
  expect(rest.at(-1)).toMatchObject({ type: 'error' });
  expect(await tasks.getTask(crawlId)).toMatchObject({ status: 'cancelled' });
  await expect.poll(stopped, { timeout: 5000 }).toBe(1);

  const listed = await tasks.listTasks();
  expect(listed.tasks.map((t) => t.taskId).sort()).toEqual([buildId, deployId, crawlId].sort());
}

describe('SDK v1 experimental tasks against this server (2025-11-25)', () => {
  it('over stdio', async () => {
    const asked: Record<string, unknown>[] = [];
    const client = newClient(asked);
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(here, 'fixtures/tasks/stdio-server.mjs')],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    await converse(client, asked, () => stderr.split('\n').filter((l) => l.startsWith('stopped ')).length);
  }, 30_000);

  it('over Streamable HTTP', async () => {
    const asked: Record<string, unknown>[] = [];
    const stopped: string[] = [];
    const server = register(
      new McpServer({ name: 'tasks-interop', version: '1.0.0' }, { tasks: { pollIntervalMs: 100 } }),
      stopped,
    );
    const handle = await serveHttp(server, { port: 0 });
    cleanups.push(() => handle.close());
    const client = newClient(asked);
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    cleanups.push(() => client.close());
    await converse(client, asked, () => stopped.length);
  }, 30_000);
});
