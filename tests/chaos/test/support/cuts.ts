/**
 * Client connections cut on cue by the proxy in front of HAProxy, round after round while the load
 * runs: the streams a round aims at (POST answers streaming as SSE, GET streams) cut `reset` or
 * `silent`, taking the modes in turn. What was cut is noted in the ledger and returned.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import type { ConnectionView, CutMode } from './cut-proxy.js';
import { waitUntil } from './deadline.js';
import type { Entry } from './ledger.js';
import type { ScenarioRun } from './scenario.js';

/** Which connections a round cuts: those carrying a POST's SSE answer, or a GET stream. */
export type CutTarget = 'POST stream' | 'GET stream';

export interface CutPlan {
  readonly rounds: number;
  /** How long a round takes: the cut comes in its second half, as soon as a stream it aims at is open. */
  readonly everyMs: number;
  /** What the rounds aim at, in turn. */
  readonly targets: readonly CutTarget[];
  /** The modes the rounds take, in turn (after the targets: every target meets every mode). */
  readonly modes: readonly CutMode[];
}

/** How many connections were cut, by target and mode (`POST stream reset`, …). */
export type CutTally = Map<string, number>;

const MATCH: Record<CutTarget, (view: ConnectionView) => boolean> = {
  'POST stream': (view) => view.method === 'POST' && view.streaming,
  'GET stream': (view) => view.method === 'GET' && view.streaming,
};

/** Cut as planned; returns the tally (also noted in the ledger). */
export async function cutRepeatedly(run: ScenarioRun, plan: CutPlan): Promise<CutTally> {
  const tally: CutTally = new Map();
  for (let round = 0; round < plan.rounds; round++) {
    const roundEnds = Date.now() + plan.everyMs;
    // The load runs uncut for the round's first half: the rounds are paced, not waiting for anything.
    await holdFor(plan.everyMs / 2);
    const target = plan.targets[round % plan.targets.length] as CutTarget;
    const mode = plan.modes[Math.floor(round / plan.targets.length) % plan.modes.length] as CutMode;
    // Cut as soon as such a stream is open, within the round's second half.
    let cut = 0;
    await waitUntil(() => {
      cut = run.cluster.proxy.cut({ mode, match: MATCH[target] });
      return cut > 0;
    }, roundEnds - Date.now());
    tally.set(`${target} ${mode}`, (tally.get(`${target} ${mode}`) ?? 0) + cut);
    await holdFor(Math.max(0, roundEnds - Date.now())); // the rest of the round, so that rounds keep their pace
  }
  const made = [...tally].map(([what, n]) => `${n} × ${what}`).join(', ');
  run.ledger.fact(`${plan.rounds} rounds of cuts, ${plan.everyMs} ms apart, connections cut: ${made}`);
  return tally;
}

/** A call's payload at the start of its answer's text (echo and progress: the payload; ask: `<payload>:accept:…`). */
const ANSWER_TEXT = /"text":"(p[0-9a-z]+-\d+-\d+)/g;

/** Answers HAProxy passed into silently cut connections, by era, and those of sessions that did not end correct. */
export interface Swallowed {
  readonly legacy: number;
  readonly modern: number;
  /** Legacy calls whose answer went into a dead connection and whose client did not get it. */
  readonly unrecovered: readonly string[];
}

/**
 * The scenario's calls whose answers HAProxy passed into silently cut connections after the cut (a
 * successful write that reached no one), judged by how their clients saw them end: a legacy call's
 * answer is stored with its stream, so its client must get it by resuming (through any process); a
 * 2026-07-28 call's answer is kept a minute by the process that ran it, so its client gets it when it
 * asks with its stream's event id and reaches that process (else it is told the request was lost).
 * Noted in the ledger; an unrecovered legacy answer is a problem.
 */
export function judgeSwallowed(run: ScenarioRun): Swallowed {
  const entries = new Map<string, Entry>();
  for (const text of run.cluster.proxy.swallowed)
    for (const [, payload] of text.matchAll(ANSWER_TEXT)) {
      const entry = run.lanes.map((lane) => lane.calls.get(payload as string)).find((e) => e !== undefined);
      if (entry !== undefined) entries.set(payload as string, entry);
    }
  const legacy = [...entries.values()].filter((e) => e.lane.includes(' legacy '));
  const unrecovered = legacy
    .filter((e) => e.outcome !== 'correct')
    .map((e) => `${e.lane} ${e.key}: ${e.outcome} ${e.note}`);
  const modern = [...entries.values()].filter((e) => !e.lane.includes(' legacy '));
  const modernCorrect = modern.filter((e) => e.outcome === 'correct').length;
  run.ledger.fact(
    `answers written into silently cut connections (HAProxy took them, no client read them): ${legacy.length} ` +
      `of 2025-11-25 calls, ${legacy.length - unrecovered.length} of them then answered correctly through a ` +
      `resumption; ${modern.length} of 2026-07-28 calls, ${modernCorrect} of them answered correctly when ` +
      'their client asked with the event id of the stream',
  );
  if (unrecovered.length > 0)
    run.ledger.problem(
      `answers written into dead connections and never recovered: ${unrecovered.join('; ')}`,
    );
  return { legacy: legacy.length, modern: modern.length, unrecovered };
}
