/**
 * A second principal (its own valid token) that learns what the load's clients put on the wire and
 * reuses it: calls a tool in their sessions, opens and replays their GET streams, DELETEs their
 * sessions, answers their pending elicitations, and retries their 2026-07-28 calls with their sealed
 * `requestState`. Each attempt is a request in the ledger: refused is correct, served is wrong.
 */

import { lastMessage, openSse, rawRequest } from '@entropic-mcp/test-kit/raw-mcp';
import { holdFor, quietPeriod } from '@entropic-mcp/test-kit/wait';
import { withDeadline } from './deadline.js';
import type { Ledger, Outcome } from './ledger.js';
import type { ScenarioRun } from './scenario.js';

/** Refusals a server gives a principal for a session that is not its own. */
const REFUSED = new Set([401, 403, 404]);

function refusal(status: number, what: string): [Outcome, string] {
  if (REFUSED.has(status)) return ['correct', ''];
  if (status >= 500) return ['clearError', `HTTP ${status}`];
  return ['wrong', `${what}: HTTP ${status}, served to the second token`];
}

/** One attempt, booked under `lane`: its verdict, an error it threw, or hung after 15 s. */
async function attempt(ledger: Ledger, lane: string, key: string, work: () => Promise<[Outcome, string]>) {
  const settled = await withDeadline(() => work(), 15_000);
  if (settled.kind === 'value') ledger.record(lane, key, ...settled.value, settled.ms);
  else if (settled.kind === 'error') ledger.record(lane, key, 'clearError', settled.note, settled.ms);
  else ledger.record(lane, key, 'hung', 'no answer within the deadline', settled.ms);
}

/** Whether an answer body carries a JSON-RPC result (not an error). */
function served(body: string): boolean {
  try {
    return lastMessage(body)?.result !== undefined;
  } catch {
    return false;
  }
}

/** Run the attacks against the running load for `ms`. */
export async function intrude(run: ScenarioRun, token: string, ms: number): Promise<void> {
  const { cluster, ledger, lanes, eventLanes } = run;
  const endpoint = cluster.scale.endpoint;
  const auth = { authorization: `Bearer ${token}` };
  const answered = new Set<unknown>();
  const sessions = (): string[] =>
    [...lanes.map((l) => l.sessionId), ...eventLanes.flatMap((l) => [...l.sessions])].filter(
      (s): s is string => s !== undefined,
    );
  let round = 0;
  // The attack runs for `ms`, one round every 20 ms (pacing, not a wait for anything).
  for (const until = Date.now() + ms; Date.now() < until; await holdFor(20)) {
    // The victims' pending elicitations, answered before their users do.
    for (const lane of lanes.filter((l) => l.spec.kind === 'ask' && l.spec.era === 'legacy')) {
      const session = lane.sessionId;
      const tap = lane.taps.at(-1);
      if (session === undefined || tap === undefined) continue;
      for (const { message } of tap.seen) {
        if (message.method !== 'elicitation/create' || answered.has(message.id)) continue;
        answered.add(message.id);
        const answer = {
          jsonrpc: '2.0',
          id: message.id,
          result: { action: 'accept', content: { name: 'intruder' } },
        };
        await attempt(ledger, 'second token: answers an elicitation', String(message.id), async () =>
          refusal((await rawRequest(endpoint, 'POST', answer, session, auth)).status, 'answer'),
        );
      }
    }
    if (round++ % 10 !== 0) continue;
    const victims = sessions();
    const session = victims[round % victims.length];
    if (session === undefined) continue;
    const call = {
      jsonrpc: '2.0',
      id: round,
      method: 'tools/call',
      params: { name: 'chaos.echo', arguments: { payload: 'intruder' } },
    };
    await attempt(ledger, 'second token: calls in a session', session, async () =>
      refusal((await rawRequest(endpoint, 'POST', call, session, auth)).status, 'call'),
    );

    const first = eventLanes
      .flatMap((l) => l.taps)
      .flatMap((t) => t.seen)
      .find((s) => s.method === 'GET' && s.eventId?.startsWith(`${session}.`));
    await attempt(ledger, 'second token: opens or replays a GET stream', session, async () => {
      const get = await openSse(endpoint, 'GET', session, {
        headers: auth,
        ...(first?.eventId === undefined ? {} : { lastEventId: first.eventId }),
      });
      // A negative check's window: the session's events must not reach the second token within it.
      await Promise.race([get.closed, quietPeriod(300)]);
      get.close();
      if (get.events.some((e) => e.data.includes('"logger":"chaos"')))
        return ['wrong', "the session's events were sent to the second token"];
      return refusal(get.status, first === undefined ? 'GET' : 'GET replay');
    });

    const retry = lanes.flatMap((l) => l.taps).flatMap((t) => t.retries)[round % 7];
    if (retry !== undefined)
      await attempt(ledger, "second token: retries with another's requestState", String(round), async () => {
        const res = await rawRequest(endpoint, 'POST', JSON.parse(retry.body), undefined, {
          ...retry.headers,
          ...auth,
        });
        if (served(res.body)) return ['wrong', 'the sealed requestState was accepted from another principal'];
        return res.status >= 500 ? ['clearError', `HTTP ${res.status}`] : ['correct', ''];
      });

    if (round % 50 === 1)
      await attempt(ledger, 'second token: DELETEs a session', session, async () =>
        refusal((await rawRequest(endpoint, 'DELETE', undefined, session, auth)).status, 'DELETE'),
      );
  }
}
