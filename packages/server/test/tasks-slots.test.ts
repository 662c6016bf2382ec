/**
 * A 2025-11-25 task takes a handler slot only until it is created: a burst of task creations from one client
 * (the official SDK v1 client's `callToolStream`) larger than `maxConcurrency` leaves every other scheduled
 * method of every client answered — tools/call, resources/read, prompts/get — over Streamable HTTP (memory
 * task store) and stdio. The Redis task store's run is `packages/redis/test/tasks-slots.test.ts`.
 */

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/http/index.js';
import { McpServer } from '../src/index.js';
import { registerBurst } from './fixtures/tasks/burst.mjs';
import { httpClient as connectClient, plainCalls, taskBurst, within } from './support/task-burst.js';

const here = dirname(fileURLToPath(import.meta.url));
const SLOTS = 8;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((fn) => fn()));
});

async function httpServer(): Promise<string> {
  const mcp = registerBurst(
    new McpServer(
      { name: 'task-burst', version: '1.0.0' },
      { maxConcurrency: SLOTS, tasks: { maxTasksPerPrincipal: 256, pollIntervalMs: 50 } },
    ),
  );
  const handle = await serveHttp(mcp, { port: 0 });
  cleanups.push(() => handle.close());
  return handle.url;
}

async function httpClient(url: string, name: string): Promise<Client> {
  const client = await connectClient(url, name);
  cleanups.push(() => client.close());
  return client;
}

describe('a burst of 2025-11-25 tasks holds no handler slot once the tasks are created', () => {
  it(`over HTTP (memory task store): ${SLOTS * 3} tasks with ${SLOTS} slots, then other clients are answered`, async () => {
    const url = await httpServer();
    const burst = taskBurst(await httpClient(url, 'burster'), SLOTS * 3, 0);
    await burst.created(SLOTS, 20_000);
    for (const name of ['alice', 'bob', 'carol']) await plainCalls(await httpClient(url, name), name, 10_000);
    await burst.created(SLOTS * 3, 20_000);
    expect(await within(burst.ended, 30_000, 'the end of every task of the burst')).toEqual(
      Array(SLOTS * 3).fill('result'),
    );
    // Long after the burst, the slots are still free.
    await plainCalls(await httpClient(url, 'dave'), 'dave', 10_000);
  }, 90_000);

  it(`over stdio: ${SLOTS * 3} tasks with ${SLOTS} slots, then the client's other calls are answered`, async () => {
    const client = new Client({ name: 'burster', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(here, 'fixtures/tasks/burst-stdio-server.mjs')],
        env: { ...process.env, BURST_CONCURRENCY: String(SLOTS) } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    cleanups.push(() => client.close());
    const burst = taskBurst(client, SLOTS * 3, 0);
    await burst.created(SLOTS, 20_000);
    await plainCalls(client, 'the stdio client', 10_000);
    await burst.created(SLOTS * 3, 20_000);
    expect(await within(burst.ended, 30_000, 'the end of every task of the burst')).toEqual(
      Array(SLOTS * 3).fill('result'),
    );
    await plainCalls(client, 'the stdio client', 10_000);
  }, 90_000);

  it('a 64-task burst of tasks that keep working leaves other clients answered while it runs', async () => {
    const url = await httpServer();
    const burst = taskBurst(await httpClient(url, 'burster'), 64, 3000);
    await burst.created(64, 30_000);
    const others = await Promise.all(['alice', 'bob', 'carol'].map((name) => httpClient(url, name)));
    const slowest = await Promise.all(others.map((client, i) => plainCalls(client, `client ${i}`, 10_000)));
    // Measured by bench/task-burst.mjs; a generous bound here only catches a hang that slipped the deadline.
    expect(Math.max(...slowest)).toBeLessThan(10_000);
    expect(await within(burst.ended, 60_000, 'the end of every task of the burst')).toEqual(
      Array(64).fill('result'),
    );
  }, 120_000);
});
