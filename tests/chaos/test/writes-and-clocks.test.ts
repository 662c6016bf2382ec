/**
 * Chaos on what the processes share besides Redis being there: a Redis that answers reads and refuses
 * writes (out of memory; a read-only replica behind the address), and processes whose wall clocks
 * are 10 minutes off (libfaketime), each on a cluster of its own. Nothing is acknowledged that Redis
 * did not take, and the clocks the processes share are Redis's.
 */

import { faketimeEnv } from '@entropic-mcp/test-kit/faketime';
import { type Refusal, refuseWrites } from '@entropic-mcp/test-kit/refuse-writes';
import { TASK_TOOLS } from '@entropic-mcp/test-kit/serve-process';
import { holdFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { runScenario, type ScenarioRun } from './support/scenario.js';
import { NEW_SESSION_LANE, probeNewSessions, probeSkewedTasks, TASK_LANE } from './support/write-probes.js';

/** How long Redis refuses writes: past the processes' liveness time to live (4 s here, plus two checks). */
const REFUSAL_MS = 10_000;
const TASK_TTL_MS = 300_000;

/** Redis refuses writes (`kind`) for REFUSAL_MS while new sessions are tried through HAProxy. */
async function refuse(run: ScenarioRun, kind: Refusal): Promise<void> {
  await holdFor(1000); // the load runs before the fault
  const refusal = await refuseWrites(run.cluster.scale.redis, kind);
  const started = Date.now();
  try {
    await probeNewSessions(run, kind, started + REFUSAL_MS);
  } finally {
    await refusal.end();
  }
  run.ledger.fact(`Redis refused writes (${kind}) for ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** What the processes logged of the refusal: its reason, never only the aborted transaction. */
function judgeLogs(run: ScenarioRun, kind: Refusal): void {
  const logs = run.cluster.scale.nodes.map((n) => n.stderr()).join('\n');
  const named = logs.split('\n').filter((line) => line.includes(kind === 'OOM' ? 'OOM command' : 'READONLY'));
  run.ledger.fact(`${named.length} log lines name the refusal (${kind})`);
  if (named.length === 0) run.ledger.problem(`no process logged the refusal (${kind})`);
  if (/EXECABORT/.test(logs)) run.ledger.problem('a process logged EXECABORT instead of the refusal');
}

function expectRefusalsCounted(ledger: Awaited<ReturnType<typeof runScenario>>): void {
  expect(ledger.failures()).toEqual([]);
  const probes = ledger.entries.filter((e) => e.lane === NEW_SESSION_LANE);
  expect(probes.filter((e) => e.outcome === 'wrong')).toEqual([]);
  expect(probes.filter((e) => e.note.startsWith('refused')).length).toBeGreaterThan(0);
}

describe('chaos: Redis refusing writes', () => {
  let cluster: ChaosCluster;

  beforeAll(async () => {
    // Liveness keys lapse within the refusal: nobody may then take a running process for gone.
    cluster = await startChaosCluster(['--redis-timeout', '2000'], { mcp: ['  node_timeout_ms: 4000'] });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('Redis out of memory (maxmemory, noeviction) for 10 s', async () => {
    const ledger = await runScenario(cluster, 'Redis out of memory (OOM) 10 s', {
      fault: (run) => refuse(run, 'OOM'),
      judge: (run) => judgeLogs(run, 'OOM'),
    });
    expectRefusalsCounted(ledger);
  });

  it('Redis turned into a read-only replica for 10 s', async () => {
    const ledger = await runScenario(cluster, 'Redis a read-only replica (READONLY) 10 s', {
      fault: (run) => refuse(run, 'READONLY'),
      judge: (run) => judgeLogs(run, 'READONLY'),
    });
    expectRefusalsCounted(ledger);
  });
});

describe('chaos: processes 10 minutes slow and fast', () => {
  let cluster: ChaosCluster;
  const SKEW = ['-10m', '+10m', undefined];

  beforeAll(async () => {
    cluster = await startChaosCluster([], {
      mcp: [
        '  tools_modules:',
        `    - path: ${TASK_TOOLS}`,
        '      task_support: { tasks.build: optional }',
        '  tasks:',
        `    default_ttl_ms: ${TASK_TTL_MS}`,
        '    poll_interval_ms: 100',
        '    sync_window_ms: 0',
      ],
      perNode: (i) => {
        const offset = SKEW[i];
        return offset === undefined ? {} : { env: faketimeEnv(offset) };
      },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('node0 10 min slow, node1 10 min fast, node2 on time (faketime)', async () => {
    const ledger = await runScenario(cluster, 'processes 10 min slow and fast (faketime)', {
      fault: (run) => probeSkewedTasks(run, TASK_TTL_MS, Date.now() + 8000),
      judge: (run) => {
        for (const [i, node] of run.cluster.scale.nodes.entries()) {
          const warned = /this process's clock is [\d.]+ s (behind|ahead of) Redis/.exec(node.stderr());
          run.ledger.fact(`node${i} (${SKEW[i] ?? 'on time'}): ${warned?.[0] ?? 'no clock warning'}`);
          if ((warned === null) !== (SKEW[i] === undefined))
            run.ledger.problem(`node${i}'s log says ${warned?.[0] ?? 'nothing'} of its clock`);
        }
      },
    });
    expect(ledger.failures()).toEqual([]);
    // No fault but the clocks: every request ends correctly, the tasks and the sealed states included.
    const all = ledger.counts();
    expect(all.correct, ledger.notes().join('\n')).toBe(all.requests);
    expect(ledger.counts(TASK_LANE).correct).toBeGreaterThan(0);
  });
});
