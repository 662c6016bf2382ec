/**
 * Graceful stops of the documented deployment (three `serve --http --redis` processes behind HAProxy,
 * configured as docs/scaling.md ships it), with the official SDK v1 and v2 clients in both eras:
 * - SIGTERM drains: the health check fails at once, new work goes to the other processes, calls in
 *   flight get the grace and then an error answer saying the process shut down, and the process exits;
 * - tasks of both eras get the grace, then read failed, saying the server shut down;
 * - a bystander's SIGTERM deletes nothing another process serves: a SIGKILL of the process running a
 *   call still ends it with `Request lost`, and a GET stream's stored messages are still replayed;
 * - a 2026-07-28 call whose process dies gets `Request lost` too (the SDK v2 asks with the event id of
 *   its stream).
 * Every SDK promise must settle: one that does not within its deadline is HUNG and fails the test.
 */

import { type ScaleCluster, startScaleCluster } from '@entropic-mcp/test-kit/cluster';
import {
  LEGACY_VERSION,
  lastMessage,
  modernRequest,
  openLegacySession,
  openSse,
  rawRequest,
} from '@entropic-mcp/test-kit/raw-mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KINDS,
  connectClient,
  onFirstChunk,
  recordingFetch,
  type ServedBy,
  settleWithin,
  type TestClient,
} from './support/sdk-clients.js';
import { type HttpServer, TASK_TOOLS, textOf, waitFor } from './support/serve-helpers.js';

/** The drain grace the processes get (`--drain-timeout`). */
const GRACE_MS = 3000;
/** How long a silent process is taken for running (short, so that a death is noticed soon). */
const NODE_TIMEOUT_MS = 2000;
const LOST_ON_STOP =
  /Request lost: the server process that was serving it \(.+\) shut down before it finished/;
const LOST_ON_DEATH = /Request lost: the server process that was serving it \(.+\) is gone/;

let cluster: ScaleCluster;
let ids = 100;

beforeAll(async () => {
  cluster = await startScaleCluster(3, {
    args: ['--drain-timeout', String(GRACE_MS), '--sse-keep-alive', '1000'],
    mcp: [
      '  tools_modules:',
      `    - path: ${TASK_TOOLS}`,
      '      task_support: { "*": optional }',
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

/** Start node `i` again, and wait until HAProxy sends it requests. */
async function restart(i: number): Promise<void> {
  await cluster.restart(i);
  await cluster.routed(i);
}

// A test that failed half-way leaves no process down for the next one.
afterEach(async () => {
  for (const [i, node] of cluster.nodes.entries())
    if (node.child.exitCode !== null || node.child.signalCode !== null) await restart(i);
});

/** The index of the process HAProxy calls `served`. */
const indexOf = (served: string | undefined): number => cluster.nodes.indexOf(cluster.node(served));

/** The node's own origin (past HAProxy). */
const origin = (node: HttpServer): string => new URL(node.url).origin;

/** The process serving calls of the most kinds of client, then the most calls. */
function busiest(calls: readonly { tag: string; client: TestClient }[], served: ServedBy): string {
  const kinds = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const { tag, client } of calls) {
    const on = served.get(tag) ?? '';
    kinds.set(on, (kinds.get(on) ?? new Set()).add(client.kind));
    counts.set(on, (counts.get(on) ?? 0) + 1);
  }
  const score = (on: string) => (kinds.get(on)?.size ?? 0) * 1000 + (counts.get(on) ?? 0);
  return [...kinds.keys()].sort((a, b) => score(b) - score(a))[0] ?? '';
}

describe('graceful stops behind HAProxy on Redis', () => {
  it('SIGTERM drains: health fails, new work goes elsewhere, calls get the grace and then an error answer', async () => {
    const served: ServedBy = new Map();
    const clients: TestClient[] = [];
    for (const kind of CLIENT_KINDS)
      for (let i = 0; i < 3; i++) clients.push(await connectClient(kind, cluster.endpoint, served));
    const progressed = new Set<string>();
    const calls: { tag: string; client: TestClient; promise: Promise<unknown> }[] = [];
    const start = (client: TestClient, tag: string, name: string, args: Record<string, unknown>) => {
      const streamed = name === 'scale.stream';
      const promise = client.call(name, { ...args, tag }, streamed ? () => progressed.add(tag) : undefined);
      promise.catch(() => {});
      calls.push({ tag, client, promise });
    };
    try {
      for (const [i, client] of clients.entries()) {
        const kinds = [
          () => start(client, `short-${i}`, 'scale.stream', { ms: 1500 }), // ends within the grace
          () => start(client, `long-${i}`, 'scale.stream', { ms: 9000 }), // outlives it
          () => start(client, `quiet-${i}`, 'scale.later', { ms: 9000 }), // outlives it, no progress (2026: JSON)
        ];
        // Round robin sends the calls to the processes in turn: a different order for each client mixes them.
        for (let k = 0; k < kinds.length; k++) kinds[(k + i) % kinds.length]?.();
      }
      // A 2026-07-28 call without progress is answered as JSON: its process is known once it answers.
      const known = calls.filter((c) => !(c.client.kind === 'v2 modern' && c.tag.startsWith('quiet')));
      await waitFor(() => known.every((c) => served.has(c.tag)), 20_000, 'every call to reach a process');
      await waitFor(
        () => calls.every((c) => c.tag.startsWith('quiet') || progressed.has(c.tag)),
        20_000,
        'every streamed call to report progress',
      );
      // The process with calls of the most kinds of client that outlive the grace (then the most calls).
      const victimName = busiest(
        known.filter((c) => !c.tag.startsWith('short')),
        served,
      );
      const victim = indexOf(victimName);
      const node = cluster.nodes[victim] as HttpServer;
      const stoppedAt = Date.now();
      const exited = cluster.terminate(victim);

      // The health check fails at once; new work sent to this process is refused with 503 and Retry-After;
      // new clients through HAProxy meanwhile are served by the other processes, without an error.
      const during = (async () => {
        const health = await fetch(`${origin(node)}/healthz`).then(
          (r) => r.status,
          (e: Error) => e.message,
        );
        const refused = await rawRequest(node.url, 'POST', {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: LEGACY_VERSION,
            capabilities: {},
            clientInfo: { name: 'late', version: '1' },
          },
        }).catch((e: Error) => ({ status: e.message, headers: {} as Record<string, unknown>, body: '' }));
        const late: string[] = [];
        for (const kind of CLIENT_KINDS) {
          try {
            const client = await connectClient(kind, cluster.endpoint, served);
            const answer = await settleWithin(
              client.call('scale.pid', { tag: `late-${kind}` }),
              20_000,
              kind,
            );
            await client.close();
            late.push(
              answer.ok
                ? `${kind}: served by ${served.get(`late-${kind}`)}`
                : `${kind}: ${answer.error.message}`,
            );
          } catch (error) {
            late.push(`${kind}: ${(error as Error).message}`);
          }
        }
        return { health, refused, late };
      })();

      // Every promise settles: what ends within the grace is answered, what outlives it gets the error.
      const outcomes = await Promise.all(
        calls.map(async (c) => ({
          ...c,
          settled: await settleWithin(c.promise, 30_000, `${c.client.kind} ${c.tag}`),
        })),
      );
      const lost = new Set<string>();
      for (const { tag, client, settled } of outcomes) {
        const on = served.get(tag);
        const what = `${client.kind} ${tag} on ${on} (stopped: ${victimName})`;
        if (tag.startsWith('short') || on !== victimName) {
          expect(settled.ok, `${what}: ${settled.ok ? '' : settled.error.message}`).toBe(true);
          expect(textOf(settled.ok ? settled.value : {}), what).toMatch(/^(later|streamed):\d+$/);
        } else {
          expect(settled.ok, `${what} should have failed`).toBe(false);
          expect(settled.ok ? '' : settled.error.message, what).toMatch(LOST_ON_STOP);
          lost.add(client.kind);
        }
      }
      expect([...lost].sort()).toEqual([...CLIENT_KINDS].sort()); // every kind of client had one cut
      const { health, refused, late } = await during;
      expect(health).toBe(503);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.body).toMatch(/shutting down/);
      for (const line of late) expect(line).toMatch(/: served by node\d$/);
      expect(late.some((line) => line.endsWith(victimName))).toBe(false);
      expect(await exited).toBe(0);
      const took = Date.now() - stoppedAt;
      expect(took).toBeGreaterThan(1400); // the short calls were waited for
      expect(took).toBeLessThan(GRACE_MS + 8000);
      await restart(victim);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    }
  }, 120_000);

  it('SIGTERM with tasks: both eras get the grace, then read failed on every process, saying the server shut down', async () => {
    const victim = 1;
    const node = cluster.nodes[victim] as HttpServer;
    const survivor = (cluster.nodes[0] as HttpServer).url;
    // 2026-07-28 tasks made on the victim: one outlives the grace, one ends within it.
    const hold = await modernRequest(node.url, ++ids, 'tools/call', { name: 'tasks.hold', arguments: {} });
    const build = await modernRequest(node.url, ++ids, 'tools/call', {
      name: 'tasks.build',
      arguments: { steps: 10 },
    });
    const modern = [hold, build].map((a) => (a.message?.result as { taskId?: string } | undefined)?.taskId);
    expect(modern.every((t) => typeof t === 'string')).toBe(true);
    // 2025-11-25 tasks made on the victim by the SDK v1 client, the same pair.
    const client = new Client({ name: 'deploy-tasks', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(node.url));
    await client.connect(transport);
    await client.listTools();
    const session = transport.sessionId as string;
    const streams = ['tasks.hold', 'tasks.build'].map((name) => {
      const args = name === 'tasks.build' ? { steps: 10 } : {};
      const created: string[] = [];
      const done = (async () => {
        let last: { type: string; result?: unknown; error?: unknown } | undefined;
        const stream = client.experimental.tasks.callToolStream(
          { name, arguments: args },
          CallToolResultSchema,
          {
            task: { ttl: 60_000 },
            timeout: 600_000,
          },
        );
        for await (const m of stream) {
          if (m.type === 'taskCreated') created.push(m.task.taskId);
          last = m;
        }
        return last;
      })();
      done.catch(() => {});
      return { name, created, done };
    });
    try {
      await waitFor(
        () => streams.every((s) => s.created.length === 1),
        20_000,
        'the 2025 tasks to be created',
      );
      const stoppedAt = Date.now();
      const exited = cluster.terminate(victim);
      const [holdEnd, buildEnd] = await Promise.all(
        streams.map((s) => settleWithin(s.done, GRACE_MS + 15_000, `the SDK v1 task stream of ${s.name}`)),
      );
      expect(buildEnd?.ok && (buildEnd.value as { type: string }).type).toBe('result');
      const holdLast = holdEnd?.ok
        ? (holdEnd.value as { type: string; error?: { message?: string } })
        : undefined;
      expect(holdLast?.type, JSON.stringify(holdEnd)).toBe('error');
      expect(holdLast?.error?.message).toMatch(/Task .+ failed/); // the SDK's words; why is read below
      expect(await exited).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(GRACE_MS + 8000);
      // Read through another process: the long ones failed saying why, the short ones completed.
      const modernNow = await Promise.all(
        modern.map(
          async (taskId) => (await modernRequest(survivor, ++ids, 'tasks/get', { taskId })).message?.result,
        ),
      );
      expect(modernNow[0]).toMatchObject({ status: 'failed' });
      expect(String((modernNow[0] as { statusMessage?: string }).statusMessage)).toMatch(
        /shut down before the task finished/,
      );
      expect(modernNow[1]).toMatchObject({ status: 'completed' });
      const legacyNow = await Promise.all(
        streams.map(async (s) => {
          const body = { jsonrpc: '2.0', id: ++ids, method: 'tasks/get', params: { taskId: s.created[0] } };
          return lastMessage((await rawRequest(survivor, 'POST', body, session)).body)?.result;
        }),
      );
      expect(legacyNow[0]).toMatchObject({ status: 'failed' });
      expect(String((legacyNow[0] as { statusMessage?: string }).statusMessage)).toMatch(
        /shut down before the task finished/,
      );
      expect(legacyNow[1]).toMatchObject({ status: 'completed' });
      await restart(victim);
    } finally {
      await client.close().catch(() => {});
    }
  }, 120_000);

  it("a bystander's SIGTERM deletes nothing: a SIGKILL then ends a call with Request lost, and stored messages replay", async () => {
    // A raw session with a GET stream holding three connection-wide messages, spread over every process.
    const raw = await openLegacySession(cluster.endpoint);
    for (let i = 0; i < 12; i++)
      await rawRequest(cluster.endpoint, 'POST', { jsonrpc: '2.0', id: ++ids, method: 'ping' }, raw);
    const get = await openSse(cluster.endpoint, 'GET', raw);
    const holder = String(get.headers['x-served-by']);
    await waitFor(() => get.events.length >= 1, 10_000, 'the GET stream to be primed');
    const from = get.events[0]?.id as string;
    const call = {
      jsonrpc: '2.0',
      id: ++ids,
      method: 'tools/call',
      params: { name: 'scale.broadcast', arguments: { count: 3 } },
    };
    await rawRequest(cluster.endpoint, 'POST', call, raw);
    await waitFor(
      () => get.events.filter((e) => e.data.includes('"logger":"scale"')).length === 3,
      10_000,
      'the messages',
    );
    get.close();

    // An SDK v1 client whose session every process served, with a call running on one of them.
    const served: ServedBy = new Map();
    const primed = new Set<string>(); // the calls whose priming event came
    const record = recordingFetch(served);
    const recording: typeof fetch = async (input, init) => {
      const res = await record(input, init);
      return String(init?.body).includes('"running"') ? onFirstChunk(res, () => primed.add('running')) : res;
    };
    const client = new Client({ name: 'deploy-bystander', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.endpoint), { fetch: recording }));
    try {
      for (let i = 0; i < 12; i++)
        await client.callTool({ name: 'scale.pid', arguments: { tag: `spread-${i}` } });
      expect(new Set(served.values()).size).toBe(3);
      const running = client.callTool(
        { name: 'scale.wait', arguments: { tag: 'running' } },
        CallToolResultSchema,
        {
          timeout: 600_000,
        },
      );
      running.catch(() => {});
      await waitFor(() => served.has('running'), 10_000, 'the call to reach a process');
      await waitFor(() => primed.has('running'), 20_000, 'the priming event of the running call');
      const runner = indexOf(served.get('running'));
      const bystander = [0, 1, 2].find((i) => i !== runner && i !== indexOf(holder)) as number;
      expect(await cluster.terminate(bystander)).toBe(0);

      // The GET stream's messages are still in Redis: resumed from its first event, all three come again.
      const again = await openSse(cluster.endpoint, 'GET', raw, { lastEventId: from });
      await waitFor(
        () => again.events.filter((e) => e.data.includes('"logger":"scale"')).length >= 3,
        10_000,
        'the replay',
      ).catch(() => {});
      again.close();
      expect(again.events.filter((e) => e.data.includes('"logger":"scale"')).length).toBe(3);

      // The running call's process dies: its client is told, through the survivors.
      await cluster.kill(runner);
      const settled = await settleWithin(running, NODE_TIMEOUT_MS + 20_000, 'the call whose process died');
      expect(settled.ok).toBe(false);
      expect(settled.ok ? '' : settled.error.message).toMatch(LOST_ON_DEATH);
      await restart(runner);
      await restart(bystander);
    } finally {
      await client.close().catch(() => {});
    }
  }, 120_000);

  it('a 2026-07-28 call on an SSE stream whose process dies ends with Request lost (SDK v2)', async () => {
    const served: ServedBy = new Map();
    const client = await connectClient('v2 modern', cluster.endpoint, served);
    try {
      let progress = 0;
      const running = client.call('scale.stream', { tag: 'doomed' }, () => progress++);
      running.catch(() => {});
      await waitFor(() => progress > 0, 10_000, 'the call to stream progress');
      await cluster.kill(indexOf(served.get('doomed')));
      const settled = await settleWithin(
        running,
        NODE_TIMEOUT_MS + 20_000,
        'the 2026-07-28 call whose process died',
      );
      expect(settled.ok).toBe(false);
      expect(settled.ok ? '' : settled.error.message).toMatch(LOST_ON_DEATH);
      await restart(indexOf(served.get('doomed')));
    } finally {
      await client.close().catch(() => {});
    }
  }, 120_000);
});
