/**
 * Scale-out through real parts: a real redis-server, a real HAProxy (round robin, no stickiness) and
 * two `entropic-mcp serve --http --redis` processes with the echo example plugin and a tools module.
 * The official v1 client's legacy session alternates between the processes, then one is SIGKILLed.
 */

import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HaproxyProcess, startHaproxy } from '../../redis/test/support/haproxy.js';
import { type RedisProcess, startRedis } from '../../redis/test/support/redis-server.js';
import {
  examplePlugins,
  type HttpServer,
  LOADER_ROOT,
  runServe,
  startHttp,
  textOf,
} from './serve-helpers.js';

const TOOLS = join(LOADER_ROOT, 'test', 'fixtures', 'scale', 'tools.mjs');
const echo = examplePlugins().find((p) => p.endsWith('echo.so'));

let redis: RedisProcess;
let proxy: HaproxyProcess;
const nodes: HttpServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  const args = [
    '--redis',
    redis.url,
    '--tools-module',
    TOOLS,
    ...(echo === undefined ? [] : ['--plugin', echo]),
  ];
  for (let i = 0; i < 2; i++) nodes.push(await startHttp(args));
  proxy = await startHaproxy(nodes.map((n) => Number(new URL(n.url).port)));
});

afterAll(async () => {
  await proxy?.stop();
  for (const node of nodes) if (node.child.exitCode === null) await node.stop();
  await redis?.stop();
});

describe('serve --redis behind HAProxy', () => {
  it('runs a v1 legacy session across both processes, and on the survivor after a SIGKILL', async () => {
    const client = new Client({ name: 'scale', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`));
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['scale.pid', 'scale.ask', 'scale.big']));
      const pids = new Set<string>();
      for (let i = 0; i < 6; i++)
        pids.add(textOf(await client.callTool({ name: 'scale.pid' })).split(':')[0] as string);
      expect(pids.size).toBe(2); // both processes served this one session
      if (echo !== undefined) {
        const echoed = await client.callTool({
          name: names.find((n) => n.endsWith('echo')) as string,
          arguments: { text: 'hi' },
        });
        expect(textOf(echoed)).toContain('hi');
      }
      for (let i = 0; i < 2; i++)
        expect(textOf(await client.callTool({ name: 'scale.ask' }))).toMatch(/^Hello, Ada from \d+$/);
      expect(textOf(await client.callTool({ name: 'scale.big' })).length).toBe(5 * 1024 * 1024);

      const aborter = new AbortController();
      const hung = client.callTool({ name: 'scale.wait' }, CallToolResultSchema, { signal: aborter.signal });
      await new Promise((r) => setTimeout(r, 300));
      aborter.abort('enough');
      await expect(hung).rejects.toThrow();
      // The cancellation reached the process running the call, whichever the notification landed on.
      const counts = new Map<string, number>();
      const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
      for (let i = 0; i < 40 && !(counts.size === 2 && total() === 1); i++) {
        const [pid, n] = textOf(await client.callTool({ name: 'scale.pid' })).split(':');
        counts.set(pid as string, Number(n));
      }
      expect(total()).toBe(1);

      const victim = nodes[0] as HttpServer;
      victim.child.kill('SIGKILL');
      await new Promise((r) => victim.child.once('exit', r));
      const survivors = new Set<string>();
      for (let i = 0; i < 4; i++)
        survivors.add(textOf(await client.callTool({ name: 'scale.pid' })).split(':')[0] as string);
      expect([...survivors]).toEqual([String(nodes[1]?.child.pid)]);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });

  it('refuses --workers 2 without Redis, and a Redis that is not there, saying why', async () => {
    const noRedis = await runServe(['--http', '127.0.0.1:0', '--workers', '2', '--tools-module', TOOLS]);
    expect(noRedis.code).toBe(2);
    expect(noRedis.stderr).toMatch(/--workers 2 needs --redis URL .*separate process with its own memory/);
    const down = await runServe([
      '--http',
      '127.0.0.1:0',
      '--redis',
      'redis://127.0.0.1:1',
      '--tools-module',
      TOOLS,
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:1 is not reachable: .*ECONNREFUSED/);
  });
});
