/**
 * How the client of a 2026-07-28 call learns its outcome when the call's SSE stream breaks. That era has
 * no resumption of a stream's messages, but a client may still ask what became of its call: the stream's
 * first event is a priming event whose id names the process running the call and the call (its request
 * id included), and a `GET` with that id as `Last-Event-ID` (the SDK v2 client sends one when the stream
 * ends without the answer) is answered by any process:
 * - the process running the call: the stream goes on on the new connection (a call still running), or
 *   its answer again (kept for a minute), or `Request lost` (its connection closed, so it was stopped);
 * - another process, when the one named is gone (Redis says so, checked as for legacy streams): `Request
 *   lost`; when it runs: a poll (the priming event again, counted, and `retry`), so that the client comes
 *   back, through the load balancer, until it reaches that process; after 40 polls, `Request lost`.
 * Nothing is stored outside the process running the call. This registry also counts the calls in flight
 * here for a drain, and answers what is left of them when the drain grace is over.
 */

import type { RequestId } from '../../core/transport.js';
import type { ResponseSink } from '../seam/sink.js';
import type { HttpRequest } from '../seam/view.js';
import { type LostCause, lostRequestError } from '../streams/lost.js';
import { sseEvent, sseHeaders, ssePriming, sseRetry } from '../streams/sse.js';

/** How long and how many answers of broken streams are kept, and the largest one kept. */
const KEPT_MS = 60_000;
const KEPT_MAX = 1000;
const KEPT_LARGEST = 1024 * 1024;
/** Polls of another process before the call is given up for lost, and their `retry`. */
const MAX_POLLS = 40;
const POLL_RETRY_MS = 250;
const SSE_HEAD = sseHeaders(undefined) as string[];

/** What a call's registry needs of its exchange. */
export interface CallStream {
  readonly principal: string | undefined;
  /** The id of the request it answers. */
  readonly requestId: RequestId | undefined;
  /** The request is a call (not a listen stream): it counts as work in flight. */
  readonly isCall: boolean;
  /** Carry the stream on on `res` (a client that came back with the call's token). */
  reattach(res: ResponseSink, priming: string): void;
  /** Answer the call with `text` (a JSON-RPC error) and end. */
  answerWith(text: string): void;
  close(): Promise<void>;
}

interface Kept {
  /** The answer's JSON text, or why there is none. */
  readonly answer: string | LostCause;
  readonly principal: string | undefined;
  readonly at: number;
}

/** The parts of a call's token: `call.<node>.<nonce>.<request id: its JSON's UTF-8 in hex>.<polls>`. */
interface Token {
  readonly node: string;
  readonly key: string;
  readonly id: RequestId;
  readonly polls: number;
}

const NODE = /^[A-Za-z0-9_-]{1,40}$/;

export function parseCallToken(text: string | undefined): Token | undefined {
  const parts = text?.split('.');
  if (parts?.length !== 5 || parts[0] !== 'call' || !NODE.test(parts[1] as string)) return undefined;
  const [, node, nonce, idPart, polls] = parts as [string, string, string, string, string];
  if (
    !/^[0-9a-f]{32}$/.test(nonce) ||
    !/^[0-9]{1,3}$/.test(polls) ||
    !/^(?:[0-9a-f]{2}){1,200}$/.test(idPart)
  )
    return undefined;
  try {
    const bytes = Uint8Array.from(idPart.match(/../g) as string[], (h) => Number.parseInt(h, 16));
    const id: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    return { node, key: `${node}.${nonce}`, id, polls: Number(polls) };
  } catch {
    return undefined;
  }
}

function tokenText(key: string, id: RequestId, polls: number): string {
  const hex = Array.from(new TextEncoder().encode(JSON.stringify(id)), (b) =>
    b.toString(16).padStart(2, '0'),
  );
  return `call.${key}.${hex.join('')}.${polls}`;
}

export class ModernCalls {
  /** Every open exchange (calls and listen streams), for a drain. */
  readonly #open = new Set<CallStream>();
  /** Calls with a token, running here. */
  readonly #running = new Map<string, CallStream>();
  readonly #kept = new Map<string, Kept>();

  readonly #nodeId: () => string;

  /**
   * `nodeId` names this process in tokens (asked for on first use: a Worker may not make random values
   * before its first request); `isGone` tells whether another process stopped for good (undefined: no other
   * process can exist, so one that is not this one is gone).
   */
  constructor(
    nodeId: () => string,
    private readonly isGone: ((node: string) => Promise<boolean>) | undefined,
  ) {
    this.#nodeId = nodeId;
  }

  get nodeId(): string {
    return this.#nodeId();
  }

  /** Calls in flight here (listen streams are not work). */
  get busy(): number {
    let n = 0;
    for (const stream of this.#open) if (stream.isCall) n++;
    return n;
  }

  opened(stream: CallStream): void {
    this.#open.add(stream);
  }

  /** A call's SSE stream starts: its priming event (the token a client may come back with). */
  token(stream: CallStream, id: RequestId): { key: string; priming: string } {
    const key = `${this.nodeId}.${crypto.randomUUID().replaceAll('-', '')}`;
    this.#running.set(key, stream);
    return { key, priming: ssePriming(tokenText(key, id, 0)) };
  }

  /** The exchange ended: with its answer (kept, in case the connection that took it was dead) or not. */
  closed(stream: CallStream, key: string | undefined, answer: string | undefined): void {
    this.#open.delete(stream);
    if (key === undefined || this.#running.get(key) !== stream) return;
    this.#running.delete(key);
    const kept = answer !== undefined && answer.length <= KEPT_LARGEST ? answer : 'cut';
    this.#kept.set(key, { answer: kept, principal: stream.principal, at: Date.now() });
    for (const [k, entry] of this.#kept) {
      if (this.#kept.size <= KEPT_MAX && entry.at > Date.now() - KEPT_MS) break;
      this.#kept.delete(k);
    }
  }

  /** Whether a GET with `lastEventId` asks about a call this process runs or ran (a drain lets it in). */
  isHere(lastEventId: string | undefined): boolean {
    return parseCallToken(lastEventId)?.node === this.nodeId;
  }

  /** The drain grace is over: every call left gets the error saying so; the listen streams end. */
  async answerLeft(): Promise<void> {
    for (const stream of [...this.#open]) {
      const id = stream.requestId;
      if (stream.isCall && id !== undefined) stream.answerWith(lostRequestError(id, this.nodeId, 'stopped'));
      else await stream.close();
    }
  }

  /** A GET naming a call's token: carry its stream on, give its answer, poll, or say it is lost. */
  async resume(req: HttpRequest, res: ResponseSink, principal: string | undefined): Promise<void> {
    const token = parseCallToken(req.header('last-event-id')) as Token;
    if (token.node === this.nodeId) return this.#answerHere(res, token, principal);
    let gone = this.isGone === undefined;
    if (!gone)
      gone = await (this.isGone as (node: string) => Promise<boolean>)(token.node).catch(() => false);
    if (gone) return lost(res, token, 'gone');
    if (token.polls >= MAX_POLLS) return lost(res, token, 'cut');
    res.writeHead(200, SSE_HEAD);
    res.end(ssePriming(tokenText(token.key, token.id, token.polls + 1)) + sseRetry(POLL_RETRY_MS));
  }

  #answerHere(res: ResponseSink, token: Token, principal: string | undefined): void {
    const running = this.#running.get(token.key);
    if (running !== undefined && running.principal === principal) {
      running.reattach(res, ssePriming(tokenText(token.key, token.id, 0)));
      return;
    }
    const kept = this.#kept.get(token.key);
    const fresh = kept !== undefined && kept.principal === principal && kept.at >= Date.now() - KEPT_MS;
    const answer = fresh ? kept.answer : 'cut';
    if (answer === 'gone' || answer === 'stopped' || answer === 'cut') {
      lost(res, token, answer);
      return;
    }
    res.writeHead(200, SSE_HEAD);
    res.end(sseEvent(undefined, answer));
  }
}

function lost(res: ResponseSink, token: Token, cause: LostCause): void {
  res.writeHead(200, SSE_HEAD);
  res.end(sseEvent(undefined, lostRequestError(token.id, token.node, cause)));
}
