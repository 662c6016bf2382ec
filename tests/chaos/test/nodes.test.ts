/**
 * Chaos on the serve processes and the network, on one cluster: a baseline with no fault (which also
 * checks the harness itself: every lane answers, every event is counted), and a second token reusing
 * the load's sessions, streams, elicitations and request states.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChaosCluster, startChaosCluster } from './support/chaos-cluster.js';
import { sleep } from './support/deadline.js';
import { intrude } from './support/intruder.js';
import { STANDARD_LANES } from './support/lanes.js';
import { runScenario } from './support/scenario.js';

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
      fault: () => sleep(4000),
    });
    expect(ledger.failures()).toEqual([]);
    expect(ledger.counts().correct).toBe(ledger.counts().requests);
    expect(ledger.events.delivered).toBeGreaterThan(0);
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
});
