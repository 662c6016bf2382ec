/**
 * Chaos on Redis, on a cluster of its own (so that the 40-s stall runs beside the node faults):
 * redis-server frozen with SIGSTOP for 10 s and for 40 s (open sockets, no answers).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { sleep } from './support/deadline.js';
import { runScenario } from './support/scenario.js';

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
  await sleep(1000);
  const redis = run.cluster.scale.redis;
  const started = Date.now();
  redis.pause();
  try {
    await sleep(ms);
  } finally {
    redis.resume();
  }
  run.ledger.fact(`redis-server stopped (SIGSTOP) for ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

describe('chaos: Redis', () => {
  it('Redis frozen (SIGSTOP) for 10 s', async () => {
    const ledger = await runScenario(cluster, 'Redis SIGSTOP 10 s', {
      deadlineMs: STALL_DEADLINE_MS,
      fault: (run) => freeze(run, 10_000),
    });
    expect(ledger.failures()).toEqual([]);
  });

  it('Redis frozen (SIGSTOP) for 40 s', async () => {
    const ledger = await runScenario(cluster, 'Redis SIGSTOP 40 s', {
      deadlineMs: STALL_DEADLINE_MS,
      fault: (run) => freeze(run, 40_000),
    });
    expect(ledger.failures()).toEqual([]);
  });
});
