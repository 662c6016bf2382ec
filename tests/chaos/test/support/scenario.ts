/**
 * One chaos scenario: start the load (request lanes and GET-stream event lanes), let it warm up, inject
 * the faults, wait until every lane answers correctly again, drain, then judge: duplicates seen on the
 * wire or in the executions log, and each numbered event against what Redis stored. The counts are
 * printed and kept for the suite's results.
 */

import { quietPeriod } from '@entropic-mcp/test-kit/wait';
import { inject } from 'vitest';
import type { ChaosCluster } from './chaos-cluster.js';
import type { Sdk } from './clients.js';
import { waitUntil } from './deadline.js';
import { EventLane, type RaiseOptions } from './event-lane.js';
import { Lane, type LaneSpec, type LoadEnv, STANDARD_LANES } from './lanes.js';
import { Ledger } from './ledger.js';
import { saveScenario } from './results.js';

export interface ScenarioOptions {
  /** Request lanes (default: every SDK and era with echo, progress and elicitation). */
  readonly lanes?: readonly LaneSpec[];
  /** GET-stream event lanes, by SDK (default one of each). */
  readonly eventLanes?: readonly Sdk[];
  /** How the event lanes raise their numbers (default: to their own session only). */
  readonly eventRaise?: RaiseOptions;
  /** Where the load connects (default HAProxy's endpoint). */
  readonly endpoint?: string;
  /** A request with no answer after this long is hung. Default 15 s. */
  readonly deadlineMs?: number;
  /** Pause between two requests of a lane. Default 25 ms. */
  readonly paceMs?: number;
  /** After the faults, how long every lane has to answer correctly again. Default 30 s. */
  readonly recoverMs?: number;
  /** The faults, injected while the load runs. */
  readonly fault: (run: ScenarioRun) => Promise<void>;
  /** More judgement once the load stopped and was counted, before the results are kept. */
  readonly judge?: (run: ScenarioRun) => void;
}

export interface ScenarioRun {
  readonly cluster: ChaosCluster;
  readonly ledger: Ledger;
  readonly lanes: readonly Lane[];
  readonly eventLanes: readonly EventLane[];
  /** Note what Redis holds of the event lanes' events now (before a fault that empties Redis). */
  snapshotEvents(): Promise<void>;
}

export async function runScenario(
  cluster: ChaosCluster,
  name: string,
  options: ScenarioOptions,
): Promise<Ledger> {
  const startedAt = Date.now();
  const ledger = new Ledger(name);
  const env: LoadEnv = {
    endpoint: options.endpoint ?? cluster.scale.endpoint,
    token: cluster.tokens.load,
    ledger,
    deadlineMs: options.deadlineMs ?? 15_000,
    paceMs: options.paceMs ?? 25,
  };
  const lanes = (options.lanes ?? STANDARD_LANES).map((spec) => new Lane(spec, env));
  const eventLanes = (options.eventLanes ?? ['v1', 'v2']).map(
    (sdk, i, all) =>
      new EventLane(sdk, env, options.eventRaise, all.slice(0, i + 1).filter((s) => s === sdk).length),
  );
  const all = [...lanes, ...eventLanes];
  for (const lane of all) lane.start();
  const run: ScenarioRun = {
    cluster,
    ledger,
    lanes,
    eventLanes,
    async snapshotEvents() {
      for (const lane of eventLanes) await lane.snapshot(cluster.redis);
    },
  };
  try {
    if (!(await waitUntil(() => all.every((l) => l.lastCorrectAt > 0), 30_000)))
      ledger.problem(`lanes never answered before the fault: ${idle(all, 0)}`);
    await options.fault(run);
    const faultEnded = Date.now();
    if (!(await waitUntil(() => all.every((l) => l.lastCorrectAt > faultEnded), options.recoverMs ?? 30_000)))
      ledger.problem(`lanes that never answered correctly after the faults: ${idle(all, faultEnded)}`);
  } finally {
    await Promise.all(all.map((lane) => lane.stop()));
  }
  // A negative check's window: a second answer to a request already answered, still on the wire, has its
  // chance to reach the taps (where it is booked as a duplicate).
  await quietPeriod(1000);
  // Events Redis stored that are still on their way (a cut GET stream not yet resumed, on a loaded machine) are
  // waited for; one that never comes is judged lost.
  await waitUntil(async () => {
    for (const lane of eventLanes) await lane.snapshot(cluster.redis);
    return !eventLanes.some((lane) => lane.awaiting());
  }, 20_000);
  for (const lane of eventLanes) {
    lane.judge(ledger);
    await lane.close();
  }
  bookDuplicates(cluster, lanes, ledger);
  options.judge?.(run);
  const taps = all.flatMap((l) => l.taps);
  const wire = ledger.wire;
  for (const tap of taps) {
    wire.resumptions += tap.resumptions;
    wire.recovered += tap.recovered;
    wire.resumedElsewhere += tap.resumedElsewhere;
  }
  ledger.fact(
    `${wire.resumptions} resumptions (requests with Last-Event-ID) by the clients; ${wire.recovered} ` +
      `answers arrived on a resumption; ${wire.resumedElsewhere} GET streams resumed on another process`,
  );
  const markdown = saveScenario(inject('chaosParts'), ledger, startedAt);
  console.log(markdown);
  return ledger;
}

function idle(lanes: readonly (Lane | EventLane)[], since: number): string {
  return lanes
    .filter((l) => l.lastCorrectAt <= since)
    .map((l) => l.name)
    .join(', ');
}

/** A request answered twice on the wire, or run twice by the servers, is duplicated. */
function bookDuplicates(cluster: ChaosCluster, lanes: readonly Lane[], ledger: Ledger): void {
  const runs = cluster.executions();
  for (const lane of lanes) {
    for (const [payload, entry] of lane.calls) {
      const answers = lane.taps.reduce((n, tap) => n + tap.answered(payload), 0);
      if (answers > 1) ledger.downgrade(entry, 'duplicated', `answered ${answers} times`);
      const ran = runs.get(payload) ?? 0;
      if (ran > 1) ledger.downgrade(entry, 'duplicated', `ran ${ran} times`);
    }
  }
}
