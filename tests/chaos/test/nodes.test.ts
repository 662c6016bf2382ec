/**
 * Chaos on the serve processes, on one cluster: a baseline with no fault (which also checks the harness
 * itself), nodes SIGKILLed and restarted in a loop, a second token reusing the load's sessions and
 * request states, and thousands of abandoned streams.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonStreams, describeRefusals } from './support/abandon.js';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { waitUntil } from './support/deadline.js';
import { intrude } from './support/intruder.js';
import { STANDARD_LANES } from './support/lanes.js';
import { runScenario } from './support/scenario.js';
import { establishedTo } from './support/sockets.js';

let cluster: ChaosCluster;

beforeAll(async () => {
  cluster = await startChaosCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('chaos: serve processes and the network', () => {
  it('baseline: no fault, every request answered correctly; an unserialisable result is an error', async () => {
    const ledger = await runScenario(cluster, 'baseline, no fault', {
      lanes: [
        ...STANDARD_LANES,
        { sdk: 'v1', era: 'legacy', kind: 'unserialisable' },
        { sdk: 'v2', era: 'modern', kind: 'unserialisable' },
      ],
      fault: () => holdFor(4000), // no fault: the load runs alone for 4 s
    });
    expect(ledger.failures()).toEqual([]);
    expect(ledger.counts().correct).toBe(ledger.counts().requests);
    expect(ledger.events.delivered).toBeGreaterThan(0);
  });

  it('nodes SIGKILLed and restarted in a loop', async () => {
    const ledger = await runScenario(cluster, 'node SIGKILL and restart, 4 rounds', {
      // A call lost with its process is answered once that process is taken for gone: its liveness key
      // (10 s) and two refresh intervals (4 s) after it died, plus the client's resumption back-off.
      deadlineMs: 30_000,
      fault: async ({ cluster, ledger }) => {
        for (let round = 0; round < 4; round++) {
          await holdFor(2500); // the load runs on the whole cluster between two kills
          const i = round % 3;
          await cluster.scale.kill(i);
          await holdFor(1000); // the fault held: the node stays down 1 s before it is started again
          const started = Date.now();
          await cluster.scale.restart(i);
          ledger.fact(
            `node${i} SIGKILLed; started again after 1 s, listening ${Date.now() - started} ms later`,
          );
        }
        await holdFor(2000); // the load runs on after the last restart, before recovery is judged
      },
    });
    expect(ledger.failures()).toEqual([]);
  });

  it('a second token reusing session ids, GET streams, elicitations and request states is refused', async () => {
    const ledger = await runScenario(cluster, 'a second token reusing sessions and request states', {
      lanes: [...STANDARD_LANES, { sdk: 'v1', era: 'legacy', kind: 'ask', elicitDelayMs: 300 }],
      fault: (run) => intrude(run, run.cluster.tokens.second, 10_000),
    });
    expect(ledger.failures()).toEqual([]);
    const attacks = ledger.lanes().filter((lane) => lane.startsWith('second token'));
    expect(attacks.length).toBe(5); // every kind of attempt was made
  });

  it('thousands of abandoned streams from one principal: every other client is served, the streams are let go', async () => {
    const ports = () => cluster.scale.nodes.map((n) => Number(new URL(n.url).port));
    const held = () => ports().reduce((sum, port) => sum + establishedTo(port), 0);
    const counts = { before: 0, after: 0, opened: 0, refused: 0 };
    const ledger = await runScenario(cluster, 'thousands of abandoned GET streams', {
      fault: async ({ cluster, ledger }) => {
        counts.before = held();
        const started = Date.now();
        const left = await abandonStreams(cluster.scale.endpoint, cluster.tokens.abandon, 3000);
        counts.opened = left.opened;
        counts.refused = [...left.refused.values()].reduce((a, b) => a + b, 0);
        const peak = held();
        ledger.fact(
          `one principal opened ${left.opened} GET streams and left each (socket closed, no DELETE) in ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s; refused: ${describeRefusals(left.refused)}`,
        );
        // Keep-alive comments find them: HAProxy cannot pass them to the gone client and lets go.
        const letGo = Date.now();
        // The count the wait ended on (the load's own connections come and go: a second reading may differ).
        await waitUntil(() => {
          counts.after = held();
          return counts.after <= counts.before + 25;
        }, 30_000);
        ledger.fact(
          `connections held by the serve processes: ${counts.before} before, ${peak} when the principal ` +
            `stopped, ${counts.after} ${((Date.now() - letGo) / 1000).toFixed(1)} s later`,
        );
      },
    });
    expect(ledger.failures()).toEqual([]);
    // The abandoned streams belong to another principal: none of the load's requests may be refused. The
    // one clear error a loaded machine may give here is the lanes' own user taking too long to answer an
    // elicitation (the test process runs the flood and the load on one event loop); anything else fails.
    const unanswered = /elicitation\/create got no answer within/;
    const refused = ledger.entries.filter((e) => e.outcome === 'clearError' && !unanswered.test(e.note));
    expect(refused.map((e) => `${e.lane}: ${e.note}`)).toEqual([]);
    expect(counts.opened).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0); // the per-principal limits answered the rest
    expect(counts.after).toBeLessThanOrEqual(counts.before + 25);
  });
});
