/**
 * A `fetch` for the official clients that adds the bearer token and reads a copy of every answer off
 * the wire: each JSON-RPC response by request id (so an answer delivered twice is seen even though the
 * SDK drops the second), and each SSE event with its id (what a GET stream delivered, and in what order).
 */

import { parseEvent } from '@entropic-mcp/test-kit/raw-mcp';
import { describeError } from './deadline.js';

/** The stored stream an event id belongs to (`<stream>.<seq>`). */
const streamPart = (eventId: string): string => eventId.slice(0, eventId.lastIndexOf('.'));

/** One JSON-RPC message read off a response, with the SSE event id it came with. */
export interface Tapped {
  /** The HTTP method of the request whose answer carried it. */
  readonly method: string;
  readonly eventId: string | undefined;
  readonly message: Record<string, unknown>;
}

export class Tap {
  /** Final JSON-RPC responses (not `input_required` rounds) seen, by the request's `payload` argument. */
  readonly answers = new Map<string, number>();
  /** The `payload` argument of each request sent, by request id. */
  readonly #payloadOf = new Map<string, string>();
  /** Every message seen, in arrival order. */
  readonly seen: Tapped[] = [];
  /** Requests that carried `Last-Event-ID` (resumptions). */
  resumptions = 0;
  /** Payloads of calls whose answer's stream the client resumed (a GET with its `Last-Event-ID`). */
  readonly #resumed = new Set<string>();
  /** Final answers to calls that arrived on a resumption (a GET with `Last-Event-ID`), not on their POST. */
  recovered = 0;
  /** Resumptions of a GET stream answered by another process than the one that sent the event resumed from. */
  resumedElsewhere = 0;
  /** The process (`X-Served-By`) that sent each event id seen on a GET answer. */
  readonly #sentBy = new Map<string, string>();
  /** The last requests sent that carried a sealed `requestState` (a 2026-07-28 retry): headers and body. */
  readonly retries: { readonly headers: Record<string, string>; readonly body: string }[] = [];
  /** The process (HAProxy's `X-Served-By`) of each GET answered with an SSE stream, in order. */
  readonly getStreams: string[] = [];
  readonly fetch: typeof fetch;
  /** What happened on the wire to each payload's request, step by step (shown for requests that hung). */
  readonly #trace = new Map<string, string[]>();
  /** The payloads whose answers travel on each stored stream. */
  readonly #streamOf = new Map<string, string[]>();
  /** The payloads whose calls sent each server→client request (by its id), so the client's answer is traced. */
  readonly #askedFor = new Map<string, readonly string[]>();

  constructor(token: string | undefined) {
    this.fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      if (headers.has('last-event-id')) this.resumptions++;
      const method = init?.method ?? 'GET';
      const sent = typeof init?.body === 'string' ? this.#sent(init.body) : [];
      if (typeof init?.body === 'string' && init.body.includes('"requestState"')) {
        this.retries.push({ headers: Object.fromEntries(headers), body: init.body });
        if (this.retries.length > 20) this.retries.shift();
      }
      const lastEventId = headers.get('last-event-id') ?? undefined;
      const answering = typeof init?.body === 'string' ? this.#answering(init.body) : undefined;
      const about =
        answering?.[1] ??
        (lastEventId === undefined
          ? sent.map(([, p]) => p)
          : (this.#streamOf.get(streamPart(lastEventId)) ?? []));
      if (lastEventId !== undefined) for (const payload of about) this.#resumed.add(payload);
      const what =
        answering !== undefined
          ? `the client's answer to ${answering[0]}`
          : lastEventId === undefined
            ? method
            : `${method} Last-Event-ID …${lastEventId.slice(-12)}`;
      let res: Response;
      try {
        res = await fetch(input, { ...init, headers });
      } catch (error) {
        this.#step(about, `${what} failed: ${describeError(error)}`);
        throw error;
      }
      this.#step(about, `${what} → ${res.status} from ${res.headers.get('x-served-by') ?? '?'}`);
      const type = res.headers.get('content-type') ?? '';
      if (res.body === null) return res;
      if (type.includes('text/event-stream')) {
        const servedBy = res.headers.get('x-served-by') ?? '';
        if (method === 'GET' && res.status === 200) {
          this.getStreams.push(servedBy);
          const from = lastEventId === undefined ? undefined : this.#sentBy.get(lastEventId);
          if (from !== undefined && from !== servedBy) this.resumedElsewhere++;
        }
        const [mine, theirs] = res.body.tee();
        void this.#readSse(method, mine, about, servedBy);
        return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
      }
      if (type.includes('application/json'))
        void res
          .clone()
          .text()
          .then((text) => this.#note(method, undefined, text))
          .catch(() => {});
      return res;
    };
  }

  /** What happened on the wire to the request carrying `payload`. */
  trace(payload: string): readonly string[] {
    return this.#trace.get(payload) ?? [];
  }

  #step(payloads: readonly string[], text: string): void {
    for (const payload of payloads) {
      const steps = this.#trace.get(payload) ?? [];
      if (steps.length < 16) steps.push(text);
      this.#trace.set(payload, steps);
    }
  }

  /** Whether the client resumed the answer's stream of the call carrying `payload`. */
  resumed(payload: string): boolean {
    return this.#resumed.has(payload);
  }

  /**
   * Whether an event with an id (the priming event, or any later one) arrived on the stream that carries
   * the answer to the call carrying `payload`.
   */
  primed(payload: string): boolean {
    for (const payloads of this.#streamOf.values()) if (payloads.includes(payload)) return true;
    return false;
  }

  /** How many final answers to the request(s) carrying `payload` were seen. */
  answered(payload: string): number {
    return this.answers.get(payload) ?? 0;
  }

  /** A POST body that answers a server→client request of a traced call: the request's id and the call's payloads. */
  #answering(body: string): [string, readonly string[]] | undefined {
    try {
      const m = JSON.parse(body) as { method?: unknown; id?: unknown };
      const about = m.method === undefined ? this.#askedFor.get(String(m.id)) : undefined;
      return about === undefined ? undefined : [String(m.id), about];
    } catch {
      return undefined;
    }
  }

  /** Note the payload of each request in a POST body; returns the requests' ids and payloads. */
  #sent(body: string): [string, string][] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return [];
    }
    const sent: [string, string][] = [];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      const payload = (m as { params?: { arguments?: { payload?: unknown } } })?.params?.arguments?.payload;
      const id = (m as { id?: unknown })?.id;
      if (typeof payload !== 'string' || id === undefined) continue;
      this.#payloadOf.set(String(id), payload);
      sent.push([String(id), payload]);
    }
    return sent;
  }

  async #readSse(
    method: string,
    body: ReadableStream<Uint8Array>,
    about: readonly string[],
    servedBy: string,
  ): Promise<void> {
    const decoder = new TextDecoder();
    let events = 0;
    let ending = 'ended';
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const event = parseEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (event?.id !== undefined) {
            if (method === 'GET') this.#sentBy.set(event.id, servedBy);
            if (about.length > 0) this.#streamOf.set(streamPart(event.id), [...about]);
          }
          if (event === undefined || event.data === '') continue;
          events++;
          this.#note(method, event.id, event.data, about);
        }
      }
    } catch (error) {
      // The connection broke: what arrived before is counted, the rest is the client's to resume.
      ending = `broke (${describeError(error)})`;
    }
    // Whatever the stream's end, the request's outcome is its SDK promise's: one never settled is hung.
    this.#step(about, `its stream ${ending} after ${events} event(s)`);
  }

  /** Note the message(s) of one answer; returns the id of the last response among them. */
  #note(
    method: string,
    eventId: string | undefined,
    text: string,
    about: readonly string[] = [],
  ): string | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    let responded: string | undefined;
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof message !== 'object' || message === null) continue;
      const m = message as Record<string, unknown>;
      this.seen.push({ method, eventId, message: m });
      if (m.method !== undefined && m.id !== undefined && about.length > 0) {
        this.#askedFor.set(String(m.id), about);
        this.#step(about, `got ${String(m.method)} ${String(m.id)}`);
      }
      if (m.method !== undefined || m.id === undefined) continue;
      responded = String(m.id);
      const payload = this.#payloadOf.get(String(m.id));
      const round = (m.result as { resultType?: unknown } | undefined)?.resultType === 'input_required';
      if (payload === undefined || round) continue;
      this.answers.set(payload, (this.answers.get(payload) ?? 0) + 1);
      if (method === 'GET') this.recovered++;
    }
    return responded;
  }
}
