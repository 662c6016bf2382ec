/**
 * Chaos on the clients' connections, on a cluster of its own, the load going through the cut-on-cue
 * proxy in front of HAProxy: POST answers and GET streams cut mid-stream (`reset`, and `silent` as a dead
 * NAT: the server's writes still succeed and reach no one), and GET streams resumed on other processes
 * than the one holding them while connection-wide messages of every kind are raised.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { type CutTally, cutRepeatedly, judgeSwallowed, type Swallowed } from './support/cuts.js';
import { STANDARD_LANES } from './support/lanes.js';
import { runScenario } from './support/scenario.js';

let cluster: ChaosCluster;

beforeAll(async () => {
  cluster = await startChaosCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('chaos: client connections', () => {
  it('POST answers and GET streams cut mid-stream, reset and silent: every call ends, answers are recovered by resumption', async () => {
    let tally: CutTally = new Map();
    let swallowed: Swallowed | undefined;
    const ledger = await runScenario(cluster, 'client connections cut mid-stream (reset, silent)', {
      endpoint: cluster.proxy.endpoint,
      // More calls whose answers stream for a while (progress) in the session era, where they resume.
      lanes: [
        ...STANDARD_LANES,
        { sdk: 'v2', era: 'legacy', kind: 'progress' },
        { sdk: 'v1', era: 'legacy', kind: 'progress' },
      ],
      fault: async (run) => {
        tally = await cutRepeatedly(run, {
          rounds: 24,
          everyMs: 800,
          targets: ['POST stream', 'GET stream', 'POST stream'],
          modes: ['reset', 'silent'],
        });
      },
      judge: (run) => {
        swallowed = judgeSwallowed(run);
      },
    });
    expect(ledger.failures()).toEqual([]);
    // Every kind of cut was made, and answers written into cut connections came back on a resumption.
    for (const what of ['POST stream reset', 'POST stream silent', 'GET stream reset', 'GET stream silent'])
      expect(tally.get(what), what).toBeGreaterThan(0);
    expect(ledger.wire.recovered).toBeGreaterThan(0);
    // Answers went into connections that were dead (a successful write), and their clients still got them.
    expect(swallowed?.legacy).toBeGreaterThan(0);
    expect(swallowed?.unrecovered).toEqual([]);
  });

  it('GET streams resumed on other processes while every kind of connection-wide message is raised: each delivered once', async () => {
    let tally: CutTally = new Map();
    const ledger = await runScenario(cluster, 'GET streams resumed on other processes', {
      endpoint: cluster.proxy.endpoint,
      lanes: [
        { sdk: 'v1', era: 'legacy', kind: 'echo' },
        { sdk: 'v2', era: 'legacy', kind: 'echo' },
        { sdk: 'v2', era: 'modern', kind: 'echo' },
      ],
      eventLanes: ['v1', 'v2', 'v1', 'v2'],
      eventRaise: { vias: ['session', 'server', 'log'], listChanges: true },
      fault: async (run) => {
        tally = await cutRepeatedly(run, {
          rounds: 12,
          everyMs: 1200,
          targets: ['GET stream'],
          modes: ['silent', 'reset'],
        });
      },
    });
    expect(ledger.failures()).toEqual([]);
    expect(tally.get('GET stream silent')).toBeGreaterThan(0);
    expect(tally.get('GET stream reset')).toBeGreaterThan(0);
    expect(ledger.wire.resumedElsewhere).toBeGreaterThanOrEqual(4);
    expect(ledger.events.delivered).toBeGreaterThan(0);
  });
});
