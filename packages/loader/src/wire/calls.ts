/**
 * The calls of one plugin instance, from the moment they are made until they are settled, the same in both
 * hosting modes: calls made in one turn wait in an outbox and leave as one burst of request text; calls sent
 * are answered in order (an instance serves one call at a time), so their table is a FIFO queue; an answer
 * frame settles the call it answers through its reply, decoded for its op. What to do when an instance dies or a
 * call must stop early is the hosting mode's business; this only keeps the books.
 */

import type { CallReply, CallVoice, PluginAnswer } from '../base/types.js';
import { type AnswerSite, decodeCode, decodeExecute, decodeToolList, withStructured } from './decode.js';
import { Op, requestText, Status } from './frames.js';
import { InFlight } from './in-flight.js';
import { hearVoice, type Voiced } from './voice.js';

export type { CallReply };

/** One call to a plugin instance: what it asks, where its outcome goes, and whether it has one yet. */
export class Call implements Voiced {
  /** The id it was last sent with (0: not sent yet). */
  id = 0;
  settled = false;
  /** Clears the call's time limit and signal listener once it settled, when it had either. */
  disarm: (() => void) | undefined = undefined;
  /** Where its progress reports and logs go (an execute with the plugin context). */
  voice: CallVoice | undefined = undefined;
  /** The JSON text of the structured result it attached, until its answer comes. */
  structured: string | undefined = undefined;

  constructor(
    readonly op: Op,
    readonly reply: CallReply,
    /** The tool of an execute (messages name it). */
    readonly tool?: string,
    readonly first?: string,
    readonly second?: string,
    /** The caller's metadata of an execute with the plugin context. */
    readonly third?: string,
  ) {}
}

/** Settles a call once: later outcomes are ignored. */
export function settle(call: Call, error: Error | undefined, value?: unknown): void {
  if (call.settled) return;
  call.settled = true;
  call.disarm?.();
  if (error === undefined) call.reply.answered(value);
  else call.reply.failed(error);
}

const MAX_ID = 0xffff_fffe;

/**
 * How many bursts may be at an instance at once: the one it works on and the next, waiting in its input. Calls
 * made meanwhile wait here and leave together when the older burst is answered. No limit sent it many small
 * bursts, each a wake-up of the instance and then of Node; one at a time left it idle while its answers
 * travelled back, which a short burst cannot hide (bench README, "Where the time goes").
 */
export const MAX_OPEN_BURSTS = 2;
/**
 * The second burst goes only while the instance has fewer calls than this: behind a longer burst the calls that
 * gather here meanwhile make a larger next one, for one wake-up less.
 */
export const SECOND_BURST_BELOW = 16;

export class CallTable {
  #outbox: Call[] = [];
  readonly #sent = new InFlight<Call>();
  #nextId = 1;
  /** Calls sent in bursts so far, and that count at the end of each burst not wholly answered yet. */
  #sentTotal = 0;
  #burstEnds: number[] = [];
  readonly #site: AnswerSite;

  /** `site` is read when an answer is decoded, so a name learned after load shows in later messages. */
  constructor(site: AnswerSite) {
    this.#site = site;
  }

  /** Calls not settled yet: queued and sent. */
  get size(): number {
    return this.#outbox.length + this.#sent.size;
  }

  /** Calls waiting in the outbox. */
  get queuedCount(): number {
    return this.#outbox.length;
  }

  /** Bursts sent whose calls are not all answered yet (answers come in order). */
  get openBursts(): number {
    const done = this.#sentTotal - this.#sent.size;
    const ends = this.#burstEnds;
    while (ends.length > 0 && (ends[0] as number) <= done) ends.shift();
    return ends.length;
  }

  /**
   * Whether the outbox's calls may leave now as a burst: some wait, and no burst is open, or fewer than
   * MAX_OPEN_BURSTS with fewer than SECOND_BURST_BELOW calls at the instance.
   */
  get mayTakeBurst(): boolean {
    if (this.#outbox.length === 0) return false;
    const open = this.openBursts;
    return open === 0 || (open < MAX_OPEN_BURSTS && this.#sent.size < SECOND_BURST_BELOW);
  }

  /** Waits in the outbox for the next burst. */
  queue(call: Call): void {
    this.#outbox.push(call);
  }

  /** Puts calls back at the front of the outbox, in order (to be sent again). */
  requeue(calls: readonly Call[]): void {
    this.#outbox = [...calls, ...this.#outbox];
  }

  /** Empties the outbox: the calls still unsettled, in order. */
  unqueue(): Call[] {
    const calls = this.#outbox.filter((c) => !c.settled);
    this.#outbox = [];
    return calls;
  }

  /** The request text of every call in the outbox (calls settled meanwhile are left out); they count as sent. */
  takeBurst(): string {
    const outbox = this.#outbox;
    this.#outbox = [];
    let text = '';
    let count = 0;
    for (const call of outbox) {
      if (call.settled) continue;
      text += this.#register(call);
      count++;
    }
    if (count > 0) {
      this.#sentTotal += count;
      this.#burstEnds.push(this.#sentTotal);
    }
    return text;
  }

  /** The request text of one call sent ahead of the outbox (a replay after a restart). */
  sendNow(call: Call): string {
    return this.#register(call);
  }

  #register(call: Call): string {
    const id = this.#nextId;
    this.#nextId = id >= MAX_ID ? 1 : id + 1;
    call.id = id;
    this.#sent.push(id, call);
    return requestText(id, call.op, call.first, call.second, call.third);
  }

  /** The oldest call sent and not answered (the one the instance is serving), or undefined. */
  head(): Call | undefined {
    return this.#sent.head();
  }

  /** Removes a sent call that will never be answered (it was dropped before it ran); false when not there. */
  forget(call: Call): boolean {
    return this.#sent.take(call.id) !== undefined;
  }

  /** Every sent call, oldest first; none counts as sent afterwards. */
  drainSent(): Call[] {
    return this.#sent.drain();
  }

  /**
   * Settles the call an answer frame is for; true when it did. An answer to a call already settled (stopped
   * early) is dropped. A frame the running call sent through its plugin context (progress, a log, a structured
   * result) goes to that call, which it does not settle.
   */
  answer(id: number, status: number, buf: Buffer, start: number, end: number): boolean {
    if (status >= Status.progress) {
      const running = this.#sent.head();
      if (running !== undefined && running.id === id && !running.settled)
        hearVoice(running, status, buf, start, end);
      return false;
    }
    const call = this.#sent.take(id);
    if (call === undefined || call.settled) return false;
    let value: unknown;
    try {
      value = this.#decode(call, status, buf, start, end);
    } catch (error) {
      settle(call, error as Error);
      return true;
    }
    settle(call, undefined, value);
    return true;
  }

  #decode(call: Call, status: number, buf: Buffer, start: number, end: number): unknown {
    switch (call.op) {
      case Op.execute:
        return decodeExecute(this.#site, call.tool as string, status, buf, start, end);
      case Op.executeWithContext: {
        const answer: PluginAnswer = decodeExecute(this.#site, call.tool as string, status, buf, start, end);
        return call.structured === undefined
          ? answer
          : withStructured(this.#site, call.tool as string, answer, call.structured);
      }
      case Op.listTools:
        return decodeToolList(this.#site, status, buf, start, end);
      default:
        return decodeCode(this.#site, call.op, status, buf, start, end);
    }
  }
}
