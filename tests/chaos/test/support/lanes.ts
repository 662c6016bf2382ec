/**
 * The load: lanes, each one official client making one request at a time with a unique payload, until
 * stopped. Every request, including each (re)connection, is booked in the ledger with its outcome; a
 * lane whose session is gone (404) connects again, as the spec tells a client to.
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import { type ChaosClient, connectClient, type Era, type Sdk, type ToolAnswer } from './clients.js';
import { type Settled, withDeadline } from './deadline.js';
import type { Entry, Ledger, Outcome } from './ledger.js';
import type { Tap } from './tap.js';

/**
 * What a lane calls: echo, a streamed call with 4 progress steps, an elicitation, an unserialisable
 * answer, or a call run as a task (400 ms).
 */
export type LaneKind = 'echo' | 'progress' | 'ask' | 'unserialisable' | 'task';

export interface LaneSpec {
  readonly sdk: Sdk;
  readonly era: Era;
  readonly kind: LaneKind;
  /** How long the lane's user takes to answer an elicitation. */
  readonly elicitDelayMs?: number;
}

export interface LoadEnv {
  readonly endpoint: string;
  readonly token: string;
  readonly ledger: Ledger;
  /** A request with no answer after this long is hung. */
  readonly deadlineMs: number;
  /** Pause between two requests of a lane. */
  readonly paceMs: number;
}

/** The lanes most scenarios run: every SDK and era with echo, progress and elicitation. */
export const STANDARD_LANES: readonly LaneSpec[] = [
  { sdk: 'v1', era: 'legacy', kind: 'echo' },
  { sdk: 'v2', era: 'legacy', kind: 'echo' },
  { sdk: 'v2', era: 'modern', kind: 'echo' },
  { sdk: 'v1', era: 'legacy', kind: 'progress' },
  { sdk: 'v2', era: 'modern', kind: 'progress' },
  { sdk: 'v1', era: 'legacy', kind: 'ask' },
  { sdk: 'v2', era: 'modern', kind: 'ask' },
];

const TOOL: Record<LaneKind, string> = {
  echo: 'chaos.echo',
  progress: 'chaos.progress',
  ask: 'chaos.ask',
  unserialisable: 'chaos.unserialisable',
  task: 'chaos.task',
};
const STEPS = 4;
/** An error that means the session is gone: the client must open a new one. */
const SESSION_GONE = /\b404\b|Session not found|Not connected/i;

let lanesMade = 0;
const RUN = Date.now().toString(36);

/** A lane's own client session loop; `start`, then `stop` waits for its last request to settle. */
export class Lane {
  readonly name: string;
  /** The taps of every client this lane used (one per connection). */
  readonly taps: Tap[] = [];
  /** The entry of each call, by payload. */
  readonly calls = new Map<string, Entry>();
  /** When the last correct answer arrived (ms since epoch). */
  lastCorrectAt = 0;
  readonly #tag = `${RUN}-${lanesMade++}`;
  #client: ChaosClient | undefined;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #seq = 0;

  constructor(
    readonly spec: LaneSpec,
    readonly env: LoadEnv,
  ) {
    const slow = spec.elicitDelayMs === undefined ? '' : ` (user answers in ${spec.elicitDelayMs} ms)`;
    // SDK v2 runs no tasks: a 2026-07-28 task lane speaks raw HTTP through its tap.
    const sdk = spec.kind === 'task' && spec.era === 'modern' ? 'raw' : spec.sdk;
    this.name = `${sdk} ${spec.era} ${spec.kind}${slow}`;
  }

  /** The session of the lane's client now (legacy era). */
  get sessionId(): string | undefined {
    return this.#client?.sessionId;
  }

  start(): void {
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
    await this.#client?.close().catch(() => {});
    this.#client = undefined;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      this.#client ??= await this.#connect();
      // A failed connect (booked) backs off before the next; requests go at the load's pace.
      if (this.#client === undefined) await holdFor(500);
      else await this.#call(this.#client);
      await holdFor(this.env.paceMs);
    }
  }

  async #connect(): Promise<ChaosClient | undefined> {
    const { sdk, era } = this.spec;
    const { endpoint, token, deadlineMs, ledger } = this.env;
    const key = `connect-${this.#tag}-${this.#seq++}`;
    const settled = await withDeadline(
      (signal) =>
        connectClient(sdk, era, { endpoint, token, signal, elicitDelayMs: this.spec.elicitDelayMs }),
      deadlineMs,
    );
    if (settled.kind === 'value') {
      ledger.record(this.name, key, 'correct', '', settled.ms);
      this.taps.push(settled.value.tap);
      return settled.value;
    }
    ledger.record(
      this.name,
      key,
      settled.kind === 'hung' ? 'hung' : 'clearError',
      noteOf(settled, 'connect'),
      settled.ms,
    );
    return undefined;
  }

  async #call(client: ChaosClient): Promise<void> {
    const kind = this.spec.kind;
    const payload = `p${this.#tag}-${this.#seq++}`;
    const progress: number[] = [];
    const args = kind === 'progress' ? { payload, steps: STEPS, delayMs: 120 } : { payload };
    const onprogress = kind === 'progress' ? (p: number) => progress.push(p) : undefined;
    const settled = await withDeadline(
      (signal) =>
        kind === 'task'
          ? client.task(TOOL[kind], args, { signal })
          : client.call(TOOL[kind], args, { signal, onprogress }),
      this.env.deadlineMs,
    );
    const unredelivered = this.spec.era === 'modern' && client.tap.resumed(payload);
    const [outcome, note] = judge(kind, payload, settled, progress, unredelivered);
    this.calls.set(payload, this.env.ledger.record(this.name, payload, outcome, note, settled.ms));
    if (outcome === 'correct') this.lastCorrectAt = Date.now();
    if (outcome === 'hung' || outcome === 'wrong')
      this.env.ledger.trace(`${this.name} ${outcome} ${payload}: ${client.tap.trace(payload).join(' → ')}`);
    if (settled.kind === 'error' && SESSION_GONE.test(settled.note)) {
      this.#client = undefined;
      await client.close().catch(() => {});
    }
  }
}

function noteOf(settled: Settled<unknown>, what: string): string {
  if (settled.kind === 'hung') return `${what}: no answer within the deadline`;
  return settled.kind === 'error' ? `${what}: ${settled.note}` : '';
}

/**
 * The outcome of one call (the README's definitions). `unredelivered`: a 2026-07-28 call whose stream
 * its client resumed: that era redelivers nothing, so steps sent while no connection carried the stream
 * may be missing (never repeated, never out of order).
 */
export function judge(
  kind: LaneKind,
  payload: string,
  settled: Settled<ToolAnswer>,
  progress: readonly number[],
  unredelivered = false,
): [Outcome, string] {
  if (settled.kind === 'hung') return ['hung', 'no answer within the deadline'];
  if (kind === 'unserialisable') {
    if (settled.kind === 'value') return ['wrong', 'an unserialisable result was answered as a success'];
    return settled.code === -32603 ? ['correct', ''] : ['clearError', settled.note];
  }
  if (settled.kind === 'error') return ['clearError', settled.note];
  const text = settled.value.content?.[0]?.text ?? '';
  if (settled.value.isError === true) return ['clearError', `tool error: ${text.slice(0, 100)}`];
  const expected = kind === 'ask' ? `${payload}:accept:n-${payload}` : payload;
  if (text !== expected) return ['wrong', `answer ${JSON.stringify(text.slice(0, 60))} is not the payload's`];
  if (kind !== 'progress') return ['correct', ''];
  if (new Set(progress).size !== progress.length) return ['duplicated', 'a progress step arrived twice'];
  if (progress.some((p, i) => i > 0 && p < (progress[i - 1] as number)))
    return ['wrong', 'progress steps out of order'];
  if (progress.length !== STEPS && !unredelivered)
    return ['wrong', `${STEPS - progress.length} progress step(s) missing`];
  return ['correct', ''];
}
