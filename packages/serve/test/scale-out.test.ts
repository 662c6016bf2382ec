/**
 * Scale-out through real parts: a real redis-server, a real HAProxy (round robin, no stickiness) and
 * two `entropic-mcp serve --http --redis` processes with the echo example plugin and a tools module.
 * The official v1 client's legacy session alternates between the processes, then one is SIGKILLed.
 */

import { spawn } from 'node:child_process';
import {
  ECHO_PLUGIN,
  SCALE_TOOLS,
  type ScaleCluster,
  startScaleCluster,
} from '@entropic-mcp/test-kit/cluster';
import { freePort } from '@entropic-mcp/test-kit/ports';
import { callTool, openLegacySession } from '@entropic-mcp/test-kit/raw-mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch, type ServedBy } from './support/sdk-clients.js';
import { CLI, type HttpServer, runServe, startHttp, textOf, waitFor } from './support/serve-helpers.js';

const TOOLS = SCALE_TOOLS;
const echo = ECHO_PLUGIN;

let cluster: ScaleCluster;

beforeAll(async () => {
  cluster = await startScaleCluster(2);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('serve --redis behind HAProxy', () => {
  it('runs a v1 legacy session across both processes, and on the survivor after a SIGKILL', async () => {
    const client = new Client({ name: 'scale', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const served: ServedBy = new Map();
    const transport = new StreamableHTTPClientTransport(new URL(cluster.endpoint), {
      fetch: recordingFetch(served),
    });
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
      const hung = client.callTool({ name: 'scale.wait', arguments: { tag: 'hung' } }, CallToolResultSchema, {
        signal: aborter.signal,
      });
      await waitFor(() => served.has('hung'), 20_000, 'the call to reach a process');
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

      await cluster.kill(0);
      const survivors = new Set<string>();
      for (let i = 0; i < 4; i++)
        survivors.add(textOf(await client.callTool({ name: 'scale.pid' })).split(':')[0] as string);
      expect([...survivors]).toEqual([String((cluster.nodes[1] as HttpServer).child.pid)]);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });

  it('serve --workers 2 shares the port, and one session is served by both workers', async () => {
    const listen = await freePort();
    const child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--http',
        `127.0.0.1:${listen}`,
        '--workers',
        '2',
        '--redis',
        cluster.redis.url,
        '--tools-module',
        TOOLS,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    try {
      await waitFor(() => /2 workers serving/.test(stderr), 60_000, 'both workers');
      // A new connection per request: node:cluster hands connections to the workers in turn.
      const endpoint = `http://127.0.0.1:${listen}/mcp`;
      const session = await openLegacySession(endpoint);
      const pids = new Set<string>();
      for (let id = 1; id <= 8; id++) {
        const answer = await callTool(endpoint, session, id, 'scale.pid');
        pids.add(textOf(answer.message?.result).split(':')[0] as string);
      }
      expect(pids.size).toBe(2);
      // One start-up report for the whole machine: the missing trusted proxy is told once, not per worker.
      expect(stderr.match(/without --trusted-proxy/g)).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('warns when --redis has no shared MRTR sealing key, and not when it has one', async () => {
    const alone = await startHttp(['--redis', cluster.redis.url, '--tools-module', TOOLS]);
    await alone.stop();
    expect(alone.stderr()).toMatch(/warning: --redis without mcp.request_state_key: .* is refused; set/);
    expect(cluster.nodes[1]?.stderr()).not.toMatch(/request_state_key/);
  });

  it('warns when --redis has no trusted proxy, saying what to set, and not when it has one', async () => {
    const alone = await startHttp(['--redis', cluster.redis.url, '--tools-module', TOOLS]);
    await alone.stop();
    expect(alone.stderr()).toMatch(
      /warning: --redis without --trusted-proxy: behind a load balancer every client shares the balancer's address, .*; set --trusted-proxy ADDR \(or mcp.trusted_proxies\) to the balancer's address and have it send X-Forwarded-For \(HAProxy: option forwardfor\)/,
    );
    expect(alone.stderr().match(/without --trusted-proxy/g)).toHaveLength(1);
    // The cluster's nodes trust HAProxy's address, as docs/scaling.md deploys them.
    expect(cluster.nodes[1]?.stderr()).not.toMatch(/trusted-proxy/);
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
