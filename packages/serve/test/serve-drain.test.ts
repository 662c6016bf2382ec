/**
 * `entropic-mcp serve --http` stopped by a signal, one process with the in-memory stores: the first
 * SIGTERM drains (the health check fails, the calls in flight get `--drain-timeout`, then `Request
 * lost`; tasks of both eras fail, saying the server shut down, and a client polling them reads it),
 * a second one exits at once (as a SIGKILL would). Official SDK clients; a promise that never settles
 * is HUNG.
 */

import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCALE_TOOLS, scaleStarted } from '@entropic-mcp/test-kit/cluster';
import { modernRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { quietPeriod } from '@entropic-mcp/test-kit/wait';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connectClient, settleWithin } from './support/sdk-clients.js';
import { type HttpServer, startHttp, TASK_TOOLS, tempDir, waitFor } from './support/serve-helpers.js';

const LOST_ON_STOP =
  /Request lost: the server process that was serving it \(.+\) shut down before it finished/;
let dir: string;
let config: string;
let ids = 1;

beforeAll(() => {
  dir = tempDir('drain');
  config = join(dir, 'entropic.yaml');
  writeFileSync(
    config,
    [
      'mcp:',
      '  tools_modules:',
      `    - path: ${TASK_TOOLS}`,
      '      task_support: { "*": optional }',
      '  tasks:',
      '    poll_interval_ms: 100',
      '    sync_window_ms: 0',
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const serve = (drainMs: number): Promise<HttpServer> =>
  startHttp(['--config', config, '--tools-module', SCALE_TOOLS, '--drain-timeout', String(drainMs)]);
const health = async (node: HttpServer) =>
  (await fetch(new URL('/healthz', node.url)).catch(() => ({ status: 'refused' }))).status;

describe('serve stopped by a signal', () => {
  it('drains on the first SIGTERM and exits at once on the second', async () => {
    const node = await serve(60_000);
    const clients = await Promise.all(CLIENT_KINDS.map((kind) => connectClient(kind, node.url, new Map())));
    try {
      expect(await health(node)).toBe(200);
      const calls = clients.map((c) => c.call('scale.wait', { tag: c.kind }));
      for (const call of calls) call.catch(() => {});
      await waitFor(
        () => CLIENT_KINDS.every((kind) => scaleStarted(node.stderr(), 'scale.wait', kind)),
        30_000,
        'the three calls to be running in scale.wait',
      );
      const exited = once(node.child, 'exit');
      node.child.kill('SIGTERM');
      await waitFor(() => /SIGTERM: draining for up to 60000 ms/.test(node.stderr()), 30_000, 'the drain');
      expect(await health(node)).toBe(503);
      await quietPeriod(500); // it does not leave while draining
      expect(node.child.exitCode).toBeNull(); // still draining
      const stoppedAt = Date.now();
      node.child.kill('SIGTERM');
      const [code, signal] = await exited;
      expect(Date.now() - stoppedAt).toBeLessThan(30_000); // at once: far short of the 60 s drain
      expect(code ?? signal).toBe(143);
      expect(node.stderr()).toMatch(/SIGTERM again: exiting at once/);
      // Like a SIGKILL: with no other process to resume on, what a client in flight learns is up to it.
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    }
  }, 90_000);

  it('gives calls and tasks of both eras the grace, then Request lost and failed tasks a poll can read', async () => {
    // The short calls outlast the second a drain lingers after failing tasks, and end within the grace.
    const node = await serve(3000);
    const clients = await Promise.all(CLIENT_KINDS.map((kind) => connectClient(kind, node.url, new Map())));
    const v1 = new Client({ name: 'drain-tasks', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransport(new URL(node.url)));
    await v1.listTools();
    try {
      const short = clients.map((c) => c.call('scale.later', { ms: 2000, tag: `${c.kind} short` }));
      const long = clients.map((c) => c.call('scale.wait', { tag: `${c.kind} long` }));
      for (const call of [...short, ...long]) call.catch(() => {});
      const made = await modernRequest(node.url, ++ids, 'tools/call', { name: 'tasks.hold', arguments: {} });
      const modernTask = (made.message?.result as { taskId: string } | undefined)?.taskId as string;
      let last: { type: string; error?: { message?: string } } | undefined;
      const legacyTask = (async () => {
        const stream = v1.experimental.tasks.callToolStream(
          { name: 'tasks.hold', arguments: {} },
          CallToolResultSchema,
          {
            task: { ttl: 60_000 },
            timeout: 600_000,
          },
        );
        for await (const m of stream) last = m as typeof last;
      })();
      legacyTask.catch(() => {});
      await waitFor(
        () =>
          CLIENT_KINDS.every(
            (kind) =>
              scaleStarted(node.stderr(), 'scale.later', `${kind} short`) &&
              scaleStarted(node.stderr(), 'scale.wait', `${kind} long`),
          ) && last !== undefined,
        30_000,
        'the six calls to be running in scale.later and scale.wait, and the SDK v1 task to be created',
      );
      const exited = once(node.child, 'exit');
      node.child.kill('SIGTERM');
      // A 2026-07-28 client polling its task reads it failed, saying why, before the process leaves.
      let polled: Record<string, unknown> | undefined;
      await waitFor(
        async () => {
          const answer = await modernRequest(node.url, ++ids, 'tasks/get', { taskId: modernTask }).catch(
            () => undefined,
          );
          const result = answer?.message?.result as Record<string, unknown> | undefined;
          if (result?.status === 'failed') polled = result;
          return polled !== undefined || node.child.exitCode !== null;
        },
        60_000,
        'the task read failed, or the process gone',
      );
      expect(polled?.statusMessage).toMatch(/the server shut down before the task finished/);
      for (const [i, call] of short.entries()) {
        const settled = await settleWithin(call, 30_000, `${CLIENT_KINDS[i]} short call`);
        expect(settled.ok, `${CLIENT_KINDS[i]}: ${settled.ok ? '' : settled.error.message}`).toBe(true);
      }
      for (const [i, call] of long.entries()) {
        const settled = await settleWithin(call, 30_000, `${CLIENT_KINDS[i]} long call`);
        expect(settled.ok ? 'answered' : settled.error.message).toMatch(LOST_ON_STOP);
      }
      await settleWithin(legacyTask, 30_000, 'the SDK v1 task stream');
      expect(last?.type).toBe('error');
      expect(last?.error?.message).toMatch(/Task .+ failed/);
      expect((await exited)[0]).toBe(0);
    } finally {
      await v1.close().catch(() => {});
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    }
  }, 90_000);
});
