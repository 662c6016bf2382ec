/**
 * Chaos on Redis, on a cluster of its own (so that the 40-s stall runs beside the node faults):
 * redis-server frozen with SIGSTOP for 10 s and for 40 s (open sockets, no answers), and killed and
 * started again empty.
 */

import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { runScenario, type ScenarioRun } from './support/scenario.js';
import { askStaleSessions, pinSessions, useNewSession } from './support/stale-sessions.js';

let cluster: ChaosCluster;

beforeAll(async () => {
  // Every wait on Redis gives up after 2 s (the default is 3 s): a request that waits on a stalled Redis
  // twice still ends well within the scenarios' 8-s deadline, and one that waits for the stall does not.
  cluster = await startChaosCluster(['--redis-timeout', '2000']);
});

afterAll(async () => {
  await cluster?.stop();
});

/** Requests that wait on a frozen Redis must end well before the stall does. */
const STALL_DEADLINE_MS = 8000;

async function freeze(run: { cluster: ChaosCluster; ledger: { fact(t: string): void } }, ms: number) {
  await holdFor(1000); // the load runs before the fault
  const redis = run.cluster.scale.redis;
  const started = Date.now();
  redis.pause();
  try {
    await holdFor(ms); // the fault held: Redis stays frozen for `ms`
  } finally {
    redis.resume();
  }
  run.ledger.fact(`redis-server stopped (SIGSTOP) for ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** How many serve processes hold a connection to redis-server (named `entropic-mcp-<pid>`); 0 when it does not answer. */
async function servesConnected(run: ScenarioRun): Promise<number> {
  try {
    const list = String(await run.cluster.redis.call('CLIENT', 'LIST'));
    return new Set(list.match(/\bname=entropic-mcp-\d+\b/g) ?? []).size;
  } catch {
    return 0;
  }
}

/** SIGKILL redis-server, then start an empty one on its port (no persistence, as in the tests). */
async function restartEmpty(run: ScenarioRun): Promise<void> {
  await holdFor(1500); // the load runs before the fault
  const pinned = await pinSessions(run);
  await run.snapshotEvents(); // what Redis acknowledged, before it is gone
  const redis = run.cluster.scale.redis;
  await redis.kill(true);
  const killed = Date.now();
  await holdFor(1000); // the fault held: no Redis for 1 s
  await redis.restart();
  run.ledger.fact(
    `redis-server SIGKILLed; an empty one listening on its port ${((Date.now() - killed) / 1000).toFixed(1)} s later`,
  );
  // The serve processes reconnect (100 ms growing to 1 s between attempts); each names its connections.
  await waitFor(
    async () => (await servesConnected(run)) >= run.cluster.scale.nodes.length,
    'every serve process connected to the new redis-server',
    20_000,
  );
  await askStaleSessions(run, pinned);
  for (let round = 0; round < 6; round++) {
    await useNewSession(run, round);
    await holdFor(1000); // the probe's pace: one new session a second
  }
}

describe('chaos: Redis', () => {
  it('Redis frozen (SIGSTOP) for 10 s', async () => {
    const ledger = await runScenario(cluster, 'Redis SIGSTOP 10 s', {
      deadlineMs: STALL_DEADLINE_MS,
      fault: (run) => freeze(run, 10_000),
    });
    expect(ledger.failures()).toEqual([]);
  });

  it('Redis killed and restarted empty: old sessions answered as documented, new ones work', async () => {
    const ledger = await runScenario(cluster, 'Redis SIGKILL, restarted empty', { fault: restartEmpty });
    expect(ledger.failures()).toEqual([]);
    // Each kind of probe was made and ended as documented (404 elsewhere, working where held).
    for (const lane of [
      'old session, on the process holding it',
      'old session, on a process that never held it',
      'new session, used on every process',
    ])
      expect(ledger.counts(lane).correct, lane).toBeGreaterThan(0);
  });

  it('Redis frozen (SIGSTOP) for 40 s', async () => {
    const ledger = await runScenario(cluster, 'Redis SIGSTOP 40 s', {
      deadlineMs: STALL_DEADLINE_MS,
      fault: (run) => freeze(run, 40_000),
    });
    expect(ledger.failures()).toEqual([]);
  });
});
