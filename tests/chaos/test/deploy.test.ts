/**
 * Chaos of deploys, on one cluster: a rolling restart (each serve process stopped with SIGTERM in turn,
 * drained, started again) under the load of both SDKs in both eras, tasks included; and a bystander's
 * graceful stop followed by a SIGKILL of the process running a call, which must still end with `Request
 * lost` while every connection-wide message Redis stored is still delivered.
 */

import { holdFor, waitFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { connectClient } from './support/clients.js';
import { withDeadline } from './support/deadline.js';
import { type LaneSpec, STANDARD_LANES } from './support/lanes.js';
import { runScenario, type ScenarioRun } from './support/scenario.js';

/** A process silent this long is taken for gone (short, so that a death is told within the deadline). */
const NODE_TIMEOUT_MS = 3000;
const TASK_LANES: readonly LaneSpec[] = [
  { sdk: 'v1', era: 'legacy', kind: 'task' },
  { sdk: 'v2', era: 'modern', kind: 'task' },
];

let cluster: ChaosCluster;

beforeAll(async () => {
  cluster = await startChaosCluster([], { mcp: [`  node_timeout_ms: ${NODE_TIMEOUT_MS}`] });
});

afterAll(async () => {
  await cluster?.stop();
});

/** Start node `i` again and wait until HAProxy sends it requests; how long that took (ms). */
async function restart(i: number): Promise<number> {
  const started = Date.now();
  await cluster.scale.restart(i);
  await cluster.scale.routed(i);
  return Date.now() - started;
}

/** The process (`X-Served-By`) whose answer to the request carrying `payload` the tap saw. */
function servedBy(steps: readonly string[]): string | undefined {
  for (const step of steps) {
    const match = /^POST → \d+ from (node\d)$/.exec(step);
    if (match !== null) return match[1];
  }
  return undefined;
}

/**
 * A probe beside the load: an SDK v1 session every process served, a call running on one process (A),
 * another process (B) stopped gracefully, then A SIGKILLed: the call must end with `Request lost`.
 */
async function bystanderThenKill({ cluster, ledger, snapshotEvents }: ScenarioRun): Promise<void> {
  const signal = new AbortController().signal;
  const probe = await connectClient('v1', 'legacy', {
    endpoint: cluster.scale.endpoint,
    token: cluster.tokens.load,
    signal,
  });
  try {
    const spread = new Set<string>();
    for (let i = 0; i < 30 && spread.size < 3; i++) {
      const payload = `probe-${Date.now().toString(36)}-${i}`;
      await probe.call('chaos.echo', { payload }, { signal });
      spread.add(servedBy(probe.tap.trace(payload)) ?? '?');
    }
    const payload = `probe-hang-${Date.now().toString(36)}`;
    const running = withDeadline((s) => probe.call('chaos.hang', { payload }, { signal: s }), 30_000);
    await waitFor(
      () => servedBy(probe.tap.trace(payload)) !== undefined && probe.tap.primed(payload),
      "the probe's call to be running on a process, its priming event at the client",
      20_000,
    );
    const runner = cluster.scale.nodes.indexOf(cluster.scale.node(servedBy(probe.tap.trace(payload))));
    const bystander = (runner + 1) % 3;
    await snapshotEvents(); // what Redis holds now must all be delivered
    const stoppedAt = Date.now();
    const code = await cluster.scale.terminate(bystander);
    ledger.fact(
      `probe session served by ${[...spread].sort().join(', ')}; node${bystander} (a bystander) SIGTERMed: ` +
        `exit ${code} after ${Date.now() - stoppedAt} ms`,
    );
    await holdFor(1000); // the fault as planned: the SIGKILL comes 1 s after the bystander's exit
    await cluster.scale.kill(runner);
    const killedAt = Date.now();
    const settled = await running;
    const note = settled.kind === 'error' ? settled.note : settled.kind;
    const lost = settled.kind === 'error' && /Request lost: .* is gone/.test(note);
    ledger.record(
      'probe: a call on the process SIGKILLed',
      payload,
      lost ? 'correct' : settled.kind === 'hung' ? 'hung' : 'wrong',
      lost ? '' : note,
      settled.ms,
    );
    ledger.fact(
      `node${runner}, running the probe's call, SIGKILLed 1 s later: the call ended in ` +
        `${((Date.now() - killedAt) / 1000).toFixed(1)} s with ${lost ? '`Request lost`' : note}`,
    );
    ledger.fact(
      `node${bystander} and node${runner} back in HAProxy ${await restart(bystander)} and ${await restart(runner)} ms after their start`,
    );
  } finally {
    await probe.close().catch(() => {});
  }
}

describe('chaos: deploys', () => {
  it('rolling restart: each process SIGTERMed in turn under load, both SDKs and eras, tasks included', async () => {
    const ledger = await runScenario(cluster, 'rolling restart (SIGTERM each process in turn)', {
      lanes: [...STANDARD_LANES, ...TASK_LANES],
      fault: async ({ cluster, ledger }) => {
        for (let i = 0; i < 3; i++) {
          await holdFor(1500); // the load runs on the whole cluster between two restarts
          const stoppedAt = Date.now();
          const code = await cluster.scale.terminate(i);
          const drained = Date.now() - stoppedAt;
          ledger.fact(
            `node${i} SIGTERMed: drained and exited (code ${code}) in ${drained} ms; back in HAProxy ${await restart(i)} ms after its start`,
          );
        }
        await holdFor(1500); // and after the last one, before the scenario judges recovery
      },
    });
    expect(ledger.failures()).toEqual([]);
    // Every request is answered correctly: the calls in flight got the drain grace, new work went to the
    // other processes. The one clear error a loaded machine may give is the lanes' own user taking longer
    // than the 4 s an elicitation allows (the test process runs every client on one event loop).
    const unanswered = /elicitation\/create got no answer within/;
    const errors = ledger.entries.filter((e) => e.outcome === 'clearError' && !unanswered.test(e.note));
    expect(errors.map((e) => `${e.lane}: ${e.note}`)).toEqual([]);
  });

  it("a bystander's graceful stop, then a SIGKILL of the process running a call: Request lost, messages replayed", async () => {
    const ledger = await runScenario(
      cluster,
      "a bystander's SIGTERM, then a SIGKILL of the process running a call",
      {
        lanes: [...STANDARD_LANES, ...TASK_LANES],
        // A call lost with its process is answered once the process is taken for gone (3 s, and 1.2 s more).
        deadlineMs: 30_000,
        fault: bystanderThenKill,
      },
    );
    expect(ledger.failures()).toEqual([]);
    expect(ledger.counts('probe: a call on the process SIGKILLed').correct).toBe(1);
  });
});
