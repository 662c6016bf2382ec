/**
 * Probes beside the load for the scenarios of shared state that cannot be written and of skewed
 * clocks, each attempt a request in the ledger:
 * - new sessions opened through HAProxy while Redis refuses writes: refused with 503, Retry-After and
 *   the Redis error by name (correct), or opened and then served by every process (correct); a
 *   session acknowledged and then unknown to another process is wrong;
 * - 2026-07-28 tasks made through HAProxy on processes whose clocks disagree: each is polled through
 *   HAProxy (so through every process) to its end and must stay there until its TTL, which Redis
 *   counts (the key's time to live); a task that turns "not found" while it runs is wrong.
 */

import {
  callTool,
  LEGACY_VERSION,
  lastMessage,
  MODERN_VERSION,
  rawRequest,
  TASKS_CLIENT,
} from '@entropic-mcp/test-kit/raw-mcp';
import { REFUSAL_TEXT, type Refusal } from '@entropic-mcp/test-kit/refuse-writes';
import { holdFor } from '@entropic-mcp/test-kit/wait';
import { withDeadline } from './deadline.js';
import type { Outcome } from './ledger.js';
import type { ScenarioRun } from './scenario.js';

const DEADLINE_MS = 15_000;
let made = 0;

const auth = (run: ScenarioRun) => ({ authorization: `Bearer ${run.cluster.tokens.load}` });

/** Book one attempt: what `work` judged, an error it threw (clear), or hung. */
async function attempt(run: ScenarioRun, lane: string, work: () => Promise<[Outcome, string]>) {
  const key = `${lane}-${made++}`;
  const settled = await withDeadline(() => work(), DEADLINE_MS);
  if (settled.kind === 'value') run.ledger.record(lane, key, ...settled.value, settled.ms);
  else if (settled.kind === 'error') run.ledger.record(lane, key, 'clearError', settled.note, settled.ms);
  else run.ledger.record(lane, key, 'hung', 'no answer within the deadline', settled.ms);
}

/** What a new session came to while Redis refused writes (`kind`). */
export const NEW_SESSION_LANE = 'new session while Redis refuses writes';

/** One new session through HAProxy; once opened, one echo on each process. */
async function newSession(run: ScenarioRun, kind: Refusal): Promise<[Outcome, string]> {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'probe', version: '1' },
    },
  };
  const answer = await rawRequest(run.cluster.scale.endpoint, 'POST', init, undefined, auth(run));
  const session = answer.headers['mcp-session-id'];
  if (answer.status === 503) {
    const named = REFUSAL_TEXT[kind].test(answer.body);
    const retry = Number(answer.headers['retry-after']) > 0;
    if (named && retry) return ['correct', `refused: 503 with Retry-After naming ${kind}`];
    return ['clearError', `503 ${retry ? '' : 'without Retry-After '}${answer.body.slice(0, 120)}`];
  }
  if (answer.status !== 200 || typeof session !== 'string')
    return ['clearError', `initialize: HTTP ${answer.status} ${answer.body.slice(0, 120)}`];
  const nodes = run.cluster.scale.nodes;
  for (let i = 0; i < nodes.length; i++) {
    const payload = `probe-${made}-${i}`;
    const echo = await callTool(
      nodes[i]?.url ?? '',
      session,
      made,
      'chaos.echo',
      { payload },
      auth(run),
      DEADLINE_MS,
    );
    const text = (echo.message?.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
    if (echo.status === 404)
      return ['wrong', `acknowledged, then 404 on node${i}: ${echo.body.slice(0, 80)}`];
    if (text !== payload) return ['clearError', `node${i}: HTTP ${echo.status} ${echo.body.slice(0, 100)}`];
  }
  return ['correct', 'opened, and served by every process'];
}

/** New sessions, one every 250 ms, until `until` (ms since epoch); the counts become a fact. */
export async function probeNewSessions(run: ScenarioRun, kind: Refusal, until: number): Promise<void> {
  const first = run.ledger.entries.length;
  while (Date.now() < until) {
    await attempt(run, NEW_SESSION_LANE, () => newSession(run, kind));
    await holdFor(250); // the probe's pace: one new session every 250 ms
  }
  const tried = run.ledger.entries.slice(first).filter((e) => e.lane === NEW_SESSION_LANE);
  const refused = tried.filter((e) => e.note.startsWith('refused')).length;
  const opened = tried.filter((e) => e.note.startsWith('opened')).length;
  const lost = tried.filter((e) => e.outcome === 'wrong').length;
  run.ledger.fact(
    `${tried.length} new sessions tried while Redis refused writes: ${refused} refused with 503, ` +
      `Retry-After and the Redis error; ${opened} opened and served by every process; ${lost} ` +
      'acknowledged and then unknown to another process',
  );
}

/** What a 2026-07-28 task came to on processes whose clocks disagree. */
export const TASK_LANE = 'v2-era task across skewed processes';

/** One 2026-07-28 request through HAProxy (the load's token): its message and the process that served it. */
async function modern(run: ScenarioRun, method: string, params: Record<string, unknown>) {
  const name = method === 'tools/call' ? params.name : params.taskId;
  const headers: Record<string, string> = {
    ...auth(run),
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': TASKS_CLIENT,
    'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
  };
  const body = { jsonrpc: '2.0', id: made++, method, params: { ...params, _meta: meta } };
  const answer = await rawRequest(run.cluster.scale.endpoint, 'POST', body, undefined, headers, DEADLINE_MS);
  const served = answer.headers['x-served-by'];
  return { message: lastMessage(answer.body), served: typeof served === 'string' ? served : '?' };
}

/** One task made through HAProxy, polled through it to its end; Redis must keep it for its TTL. */
async function skewedTask(run: ScenarioRun, ttlMs: number): Promise<[Outcome, string]> {
  const created = await modern(run, 'tools/call', { name: 'tasks.build', arguments: { steps: 2 } });
  const task = created.message?.result as { taskId?: string } | undefined;
  const maker = created.served;
  if (task?.taskId === undefined)
    return ['clearError', `made on ${maker}: ${JSON.stringify(created.message)}`];
  const seen = new Set<string>();
  for (;;) {
    const polled = await modern(run, 'tasks/get', { taskId: task.taskId });
    seen.add(polled.served);
    const error = polled.message?.error as { message?: string } | undefined;
    if (error !== undefined) {
      const lost = /Task not found/.test(error.message ?? '');
      return [lost ? 'wrong' : 'clearError', `made on ${maker}, ${polled.served}: ${error.message}`];
    }
    const status = (polled.message?.result as { status?: string } | undefined)?.status;
    if (status === 'completed' && seen.size >= 2) break;
    if (status !== 'working' && status !== 'completed') return ['clearError', `status ${status}`];
    await holdFor(100); // the client's poll interval for its task
  }
  const ttl = await run.cluster.redis.pttl(`emcp:task:${task.taskId}`);
  if (ttl > ttlMs || ttl < ttlMs - 60_000)
    return ['wrong', `made on ${maker}: Redis expires it in ${ttl} ms, its TTL is ${ttlMs} ms`];
  return ['correct', ''];
}

/** Tasks one after another until `until` (ms since epoch). */
export async function probeSkewedTasks(run: ScenarioRun, ttlMs: number, until: number): Promise<void> {
  while (Date.now() < until) await attempt(run, TASK_LANE, () => skewedTask(run, ttlMs));
}
