/**
 * A lane that checks a legacy session's GET stream: it raises numbered connection-wide messages of its
 * own session (`chaos.notify`, run by whichever process HAProxy picks) and reads them from the stream
 * its official client keeps open (and resumes with `Last-Event-ID`). Afterwards each number is judged
 * against what the client received and what Redis stored: delivered once and in order, delivered twice,
 * out of order, lost (stored, so acknowledged, but never delivered) or dropped (never stored).
 */

import { holdFor } from '@entropic-mcp/test-kit/wait';
import type { Redis } from 'ioredis';
import { type ChaosClient, connectClient, type Sdk } from './clients.js';
import { waitUntil, withDeadline } from './deadline.js';
import type { LoadEnv } from './lanes.js';
import type { Ledger } from './ledger.js';
import type { Tap } from './tap.js';

let made = 0;

/** How `chaos.notify` raises a number: to the session only, with server.notify, or with server.log. */
export type Via = 'session' | 'server' | 'log';

/** How an event lane raises its numbers: the ways it takes in turn, and whether each also changes the tools list. */
export interface RaiseOptions {
  readonly vias?: readonly Via[];
  readonly listChanges?: boolean;
}

export class EventLane {
  readonly name: string;
  readonly taps: Tap[] = [];
  /** Sessions this lane used (a new one after a 404). */
  readonly sessions = new Set<string>();
  /** The numbers received, in arrival order. */
  readonly received: number[] = [];
  /** Numbers whose raising call was made. */
  raised = 0;
  lastCorrectAt = 0;
  readonly #tag = `ev${Date.now().toString(36)}${made++}`;
  /** Numbers found in Redis's logs, with their event ids (snapshots before Redis lost them, and at the end). */
  readonly #stored = new Map<number, string>();
  #client: ChaosClient | undefined;
  #stopped = false;
  #loop: Promise<void> | undefined;

  constructor(
    readonly sdk: Sdk,
    readonly env: LoadEnv,
    readonly raise: RaiseOptions = {},
    /** Which lane of this SDK it is (1, 2, …), for its name. */
    ordinal = 1,
  ) {
    this.name = `${sdk} legacy GET events${ordinal > 1 ? ` #${ordinal}` : ''}`;
  }

  start(): void {
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
  }

  /** Close the client (after the final judgement read Redis). */
  async close(): Promise<void> {
    await this.#client?.close().catch(() => {});
    this.#client = undefined;
  }

  async #run(): Promise<void> {
    const { ledger, deadlineMs } = this.env;
    while (!this.#stopped) {
      this.#client ??= await this.#connect();
      const client = this.#client;
      if (client === undefined) {
        await holdFor(500); // back off before connecting again (the failed attempt is booked)
        continue;
      }
      const n = this.raised++;
      const key = `${this.#tag}-${n}`;
      const vias = this.raise.vias ?? ['session'];
      const args = { tag: this.#tag, n, via: vias[n % vias.length], list: this.raise.listChanges === true };
      const settled = await withDeadline(
        (signal) => client.call('chaos.notify', args, { signal }),
        deadlineMs,
      );
      if (settled.kind === 'value' && /^\d+$/.test(settled.value.content?.[0]?.text ?? '')) {
        ledger.record(this.name, key, 'correct');
        this.lastCorrectAt = Date.now();
      } else if (settled.kind === 'hung')
        ledger.record(this.name, key, 'hung', 'no answer within the deadline');
      else if (settled.kind === 'error') {
        ledger.record(this.name, key, 'clearError', settled.note);
        if (/\b404\b|Session not found|Not connected/i.test(settled.note)) {
          await client.close().catch(() => {});
          this.#client = undefined;
        }
      } else ledger.record(this.name, key, 'wrong', 'notify answered without a process id');
      // Give the event time to arrive before raising the next, so that order is meaningful; one later
      // than 2 s is judged at the end (late, or lost).
      await waitUntil(() => this.received.includes(n), 2000);
      await holdFor(this.env.paceMs); // the load's pace
    }
  }

  async #connect(): Promise<ChaosClient | undefined> {
    const { endpoint, token, ledger, deadlineMs } = this.env;
    const onLog = (data: unknown): void => {
      const d = data as { tag?: unknown; n?: unknown };
      if (d?.tag === this.#tag && typeof d.n === 'number') this.received.push(d.n);
    };
    const settled = await withDeadline(
      (signal) => connectClient(this.sdk, 'legacy', { endpoint, token, signal, onLog }),
      deadlineMs,
    );
    const key = `${this.#tag}-connect-${this.taps.length}`;
    if (settled.kind !== 'value') {
      const note =
        settled.kind === 'error' ? `connect: ${settled.note}` : 'connect: no answer within the deadline';
      ledger.record(this.name, key, settled.kind === 'hung' ? 'hung' : 'clearError', note, settled.ms);
      return undefined;
    }
    ledger.record(this.name, key, 'correct', '', settled.ms);
    const client = settled.value;
    this.taps.push(client.tap);
    if (client.sessionId !== undefined) this.sessions.add(client.sessionId);
    // The client opens its GET stream after `initialized`; raise nothing before it is there.
    await waitUntil(() => client.tap.getStreams.length > 0, deadlineMs);
    return client;
  }

  /** Note what Redis holds of this lane's events now (call before Redis loses them, and at the end). */
  async snapshot(redis: Redis): Promise<void> {
    for (const [n, eventId] of await storedNumbers(redis, this.sessions, this.#tag))
      this.#stored.set(n, eventId);
  }

  /** Whether a number Redis stored has not reached the client (yet: still on its way, or lost). */
  awaiting(): boolean {
    for (const n of this.#stored.keys()) if (n < this.raised && !this.received.includes(n)) return true;
    return false;
  }

  /**
   * Book every raised number in the ledger's event counts. Order is judged per stored stream (event
   * ids `<stream>.<seq>` must arrive with rising seq); a number that arrived after a higher one (it was
   * over 2 s late, so the next was raised before it came) is only noted.
   */
  judge(ledger: Ledger): void {
    const counts = new Map<number, number>();
    let highest = -1;
    let late = 0;
    for (const n of this.received) {
      counts.set(n, (counts.get(n) ?? 0) + 1);
      if (n < highest) late++;
      highest = Math.max(highest, n);
    }
    for (let n = 0; n < this.raised; n++) {
      const c = counts.get(n) ?? 0;
      if (c > 1) ledger.events.duplicated++;
      else if (c === 1) ledger.events.delivered++;
      else if (this.#stored.has(n)) {
        ledger.events.lost++;
        ledger.trace(`${this.name} lost ${n}, stored as ${this.#stored.get(n)}; ${this.#streams()}`);
      } else ledger.events.dropped++;
    }
    const lastSeq = new Map<string, number>();
    for (const { eventId, message } of this.taps.flatMap((tap) => tap.seen)) {
      const data = (message.params as { data?: { tag?: unknown } } | undefined)?.data;
      if (eventId === undefined || data?.tag !== this.#tag) continue;
      const dot = eventId.lastIndexOf('.');
      const [stream, seq] = [eventId.slice(0, dot), Number(eventId.slice(dot + 1))];
      if (seq < (lastSeq.get(stream) ?? -1)) {
        ledger.events.outOfOrder++;
        ledger.trace(
          `${this.name} got ${eventId} after ${stream}.${lastSeq.get(stream)}; ${this.#streams()}`,
        );
      }
      lastSeq.set(stream, Math.max(seq, lastSeq.get(stream) ?? -1));
    }
    if (late > 0) ledger.fact(`${this.name}: ${late} numbers arrived after a higher one (over 2 s late)`);
    if (this.raise.listChanges === true) {
      const changes = this.taps
        .flatMap((tap) => tap.seen)
        .filter((m) => m.method === 'GET' && m.message.method === 'notifications/tools/list_changed');
      ledger.fact(`${this.name}: ${changes.length} tools list changes arrived on its GET streams`);
    }
  }

  /** The GET streams the client read: by which process, and the first and last event id of each. */
  #streams(): string {
    const spans = new Map<string, [string, string]>();
    for (const { method, eventId } of this.taps.flatMap((tap) => tap.seen)) {
      if (method !== 'GET' || eventId === undefined) continue;
      const dot = eventId.lastIndexOf('.');
      const [stream, seq] = [eventId.slice(0, dot), eventId.slice(dot + 1)];
      spans.set(stream, [spans.get(stream)?.[0] ?? seq, seq]);
    }
    const read = [...spans].map(([stream, [a, b]]) => `…${stream.slice(-14)} ${a}..${b}`).join(', ');
    const served = this.taps.map((tap) => tap.getStreams.join('/')).join(' | ');
    return `GET streams served by ${served}; events read: ${read}`;
  }
}

/** The numbers of `tag` stored in the event logs of `sessions` (every stream of each session), with their ids. */
export async function storedNumbers(
  redis: Redis,
  sessions: Iterable<string>,
  tag: string,
): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const session of sessions) {
    for (const stream of await redis.smembers(`emcp:evs:${session}`)) {
      for (const [entry, fields] of await redis.xrange(`emcp:ev:${stream}`, '-', '+')) {
        const at = fields.findIndex((f, i) => i % 2 === 0 && f === 'd');
        const text = at < 0 ? '' : (fields[at + 1] ?? '');
        if (!text.includes(tag)) continue;
        const data = (JSON.parse(text) as { params?: { data?: { tag?: string; n?: number } } }).params?.data;
        if (data?.tag === tag && typeof data.n === 'number')
          found.set(data.n, `${stream}.${entry.slice(entry.indexOf('-') + 1)}`);
      }
    }
  }
  return found;
}
