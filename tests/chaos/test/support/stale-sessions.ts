/**
 * Sessions that outlive their shared state. Before Redis loses everything, one session is opened
 * straight on each serve process (so only that process holds a copy); once Redis is back empty, each
 * is asked of its own process (which holds it: it keeps working) and of another one (which never held
 * it and can find nothing: `404 Session not found`, the spec's cue to start a new session). And a new
 * session, opened on one process, is used on the two others (restored from the new Redis). Every
 * attempt is a request in the ledger.
 */

import { callTool, openLegacySession } from '@entropic-mcp/test-kit/raw-mcp';
import { withDeadline } from './deadline.js';
import type { Outcome } from './ledger.js';
import type { ScenarioRun } from './scenario.js';

/** A session known to one process only. */
export interface Pinned {
  readonly session: string;
  readonly node: number;
}

const DEADLINE_MS = 15_000;
let asked = 0;

const endpointOf = (run: ScenarioRun, node: number): string => run.cluster.scale.nodes[node]?.url ?? '';
const auth = (run: ScenarioRun) => ({ authorization: `Bearer ${run.cluster.tokens.load}` });

/** One echo call in `session` on process `node`: the answer's status and text. */
async function echo(run: ScenarioRun, node: number, session: string, payload: string) {
  const answer = await callTool(
    endpointOf(run, node),
    session,
    asked++,
    'chaos.echo',
    { payload },
    auth(run),
  );
  const result = answer.message?.result as { content?: { text?: string }[] } | undefined;
  return { status: answer.status, text: result?.content?.[0]?.text, body: answer.body.slice(0, 160) };
}

/** One session opened and used on each process, straight (not through HAProxy). */
export async function pinSessions(run: ScenarioRun): Promise<Pinned[]> {
  const pinned: Pinned[] = [];
  for (let node = 0; node < run.cluster.scale.nodes.length; node++) {
    const session = await openLegacySession(endpointOf(run, node), auth(run));
    const first = await echo(run, node, session, `pin-${node}`);
    if (first.text !== `pin-${node}`) throw new Error(`a pinned session did not work: ${first.body}`);
    pinned.push({ session, node });
  }
  return pinned;
}

/** Book one attempt: what `work` judged, an error it threw (clear), or hung. */
async function attempt(run: ScenarioRun, lane: string, key: string, work: () => Promise<[Outcome, string]>) {
  const settled = await withDeadline(() => work(), DEADLINE_MS);
  if (settled.kind === 'value') run.ledger.record(lane, key, ...settled.value, settled.ms);
  else if (settled.kind === 'error') run.ledger.record(lane, key, 'clearError', settled.note, settled.ms);
  else run.ledger.record(lane, key, 'hung', 'no answer within the deadline', settled.ms);
}

/** A 503 (Redis not reachable yet) is a clear error; any other status is judged by `expected`. */
function verdict(status: number, ok: boolean, what: string): [Outcome, string] {
  if (ok) return ['correct', ''];
  if (status === 503) return ['clearError', 'HTTP 503'];
  return ['wrong', what];
}

/** After Redis came back empty: each pinned session on its own process, and on the next one. */
export async function askStaleSessions(run: ScenarioRun, pinned: readonly Pinned[]): Promise<void> {
  const count = run.cluster.scale.nodes.length;
  for (const { session, node } of pinned) {
    const payload = `own-${asked}`;
    await attempt(run, 'old session, on the process holding it', session, async () => {
      const answer = await echo(run, node, session, payload);
      return verdict(answer.status, answer.text === payload, `HTTP ${answer.status}: ${answer.body}`);
    });
    const other = (node + 1) % count;
    await attempt(run, 'old session, on a process that never held it', session, async () => {
      const answer = await echo(run, other, session, `other-${asked}`);
      const gone = answer.status === 404 && /Session not found/i.test(answer.body);
      return verdict(answer.status, gone, `not 404 Session not found: HTTP ${answer.status}: ${answer.body}`);
    });
  }
}

/** A new session opened on one process and used on every other one. */
export async function useNewSession(run: ScenarioRun, round: number): Promise<void> {
  const count = run.cluster.scale.nodes.length;
  await attempt(run, 'new session, used on every process', `new-${round}`, async () => {
    const opener = round % count;
    const session = await openLegacySession(endpointOf(run, opener), auth(run));
    for (let i = 1; i <= count; i++) {
      const node = (opener + i) % count;
      const payload = `new-${round}-${node}`;
      const answer = await echo(run, node, session, payload);
      if (answer.text !== payload) return verdict(answer.status, false, `node${node}: HTTP ${answer.status}`);
    }
    return ['correct', ''];
  });
}
