/**
 * A plugin tool run as a task: its `plugin.execute` span is a child of the task's span (which lasts as long as
 * the call), not of the short request span that answered with the task. Both eras, both hosting modes, a real
 * compiled plugin on a real McpServer, spans read from a real OpenTelemetry SDK registered in this process.
 */

import { createInMemoryTransportPair, McpServer } from '@entropic-mcp/server';
import { fixture } from '@entropic-mcp/test-kit/c-fixtures';
import { waitForValue } from '@entropic-mcp/test-kit/wait';
import { afterAll, describe, expect, it } from 'vitest';
import { installOtel } from '../../server/test/support/otel.js';
import type { Plugin } from '../src/base/types.js';
import { mountPlugin } from '../src/bridge/mount.js';
import { loadPlugin } from '../src/index.js';

const otel = installOtel();
const plugins: Plugin[] = [];
const TASKS = 'io.modelcontextprotocol/tasks';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'span-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
};

afterAll(async () => {
  await Promise.all(plugins.map((p) => p.close()));
});

type Message = Record<string, unknown> & { id?: number; result?: Record<string, unknown> };

/** A raw JSON-RPC client over the in-memory pair: `request` resolves with the answer to its id. */
async function rawClient(server: McpServer) {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const waiting = new Map<number, (m: Message) => void>();
  clientSide.onmessage = (message) => {
    const m = message as Message;
    if (typeof m.id === 'number') waiting.get(m.id)?.(m);
  };
  await clientSide.start();
  await server.connect(serverSide);
  let next = 1;
  return {
    request: (method: string, params: Record<string, unknown>) =>
      new Promise<Message>((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        void clientSide.send({ jsonrpc: '2.0', id, method, params });
      }),
    notify: (method: string) => void clientSide.send({ jsonrpc: '2.0', method }),
    close: () => clientSide.close(),
  };
}

const until = <T>(get: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> =>
  waitForValue(get, what, 30_000);

describe.each(['process', 'none'] as const)('a plugin call run as a task (isolation %s)', (isolation) => {
  it.each(['2026-07-28', '2025-11-25'] as const)(
    'hangs its plugin.execute span under the task (%s)',
    async (era) => {
      otel.reset();
      const plugin = await loadPlugin(fixture('crashy'), { isolation, onStderr: () => {} });
      plugins.push(plugin);
      const server = new McpServer(
        { name: 'span-test', version: '1.0.0' },
        { tasks: { syncWindowMs: 0, pollIntervalMs: 20 } },
      );
      mountPlugin(server, plugin, { taskSupport: 'optional' });
      const client = await rawClient(server);
      try {
        const call = { name: 'crashy.sleep', arguments: { ms: 300 } };
        let created: Message;
        let get: () => Promise<Message>;
        if (era === '2026-07-28') {
          created = await client.request('tools/call', { ...call, _meta: MODERN_META });
          expect(created.result?.resultType).toBe('task');
          const taskId = created.result?.taskId;
          get = () => client.request('tasks/get', { taskId, _meta: MODERN_META });
        } else {
          await client.request('initialize', {
            protocolVersion: era,
            capabilities: {},
            clientInfo: { name: 'span-test', version: '1.0.0' },
          });
          client.notify('notifications/initialized');
          created = await client.request('tools/call', { ...call, task: { ttl: 60_000 } });
          const taskId = (created.result?.task as { taskId?: string } | undefined)?.taskId;
          expect(taskId).toEqual(expect.any(String));
          get = () => client.request('tasks/get', { taskId });
        }
        await until(async () => {
          const status = (await get()).result?.status;
          return status === 'completed' ? status : undefined;
        }, 'the task to complete');
        const named = (name: string) => otel.spans().find((s) => s.name === name);
        const request = await until(() => named('tools/call crashy.sleep'), 'the request span');
        const task = await until(() => named('task tools/call'), 'the task span');
        const execute = await until(() => named('plugin.execute crashy.sleep'), 'the plugin.execute span');
        expect(task.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
        expect(execute.parentSpanContext?.spanId, 'plugin.execute is a child of the task span').toBe(
          task.spanContext().spanId,
        );
        expect(task.attributes['entropic.task.status']).toBe('completed');
      } finally {
        await client.close();
      }
    },
  );
});
