/**
 * The core's admission of one request sent alone (its rate limit), as the stage that delivered the request
 * waits for it: the response starts only once the request was admitted, so that a refusal can still be a
 * status (`answerFailure` writes it). Decided during delivery (an in-memory store) it costs no promise;
 * decided later (a store across the network) the stage awaits it.
 */

import type { McpError } from '../../core/errors.js';
import type { RequestId } from '../../core/transport.js';

export class Admission {
  #decided = false;
  #refusal: McpError | undefined;
  #settle: ((refusal: McpError | undefined) => void) | undefined;

  /** `open`: what lets the response start, run once the request is admitted (or answered without a decision). */
  constructor(private readonly open?: () => void) {}

  /** Whether the core refused the request: its answer is dropped, the stage answers with a status. */
  get refused(): boolean {
    return this.#refusal !== undefined;
  }

  /** The core decided (`refusal` undefined: it runs), or answered the request without deciding. */
  decide(refusal: McpError | undefined): void {
    if (this.#decided) return;
    this.#decided = true;
    this.#refusal = refusal;
    if (refusal === undefined) this.open?.();
    this.#settle?.(refusal);
  }

  /** The connection ended first: the stage goes on, nothing is opened. */
  drop(): void {
    if (this.#decided) return;
    this.#decided = true;
    this.#settle?.(undefined);
  }

  /** After delivery: nothing when admitted already, the refusal thrown when refused, else a promise of either. */
  outcome(): Promise<void> | undefined {
    if (this.#decided) {
      if (this.#refusal !== undefined) throw this.#refusal;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      this.#settle = (refusal) => (refusal === undefined ? resolve() : reject(refusal));
    });
  }
}

/** The admissions of a connection's requests sent alone, by id, from delivery until their answer goes out. */
export class Admissions {
  readonly #waiting = new Map<RequestId, Admission>();

  /**
   * `deliver` request `id` and learn whether the core admits it; `open` runs on admission, `started` once the
   * core went on with it. Nothing when admitted at once, the refusal thrown, else a promise of either.
   */
  wait(
    id: RequestId,
    deliver: () => void,
    open?: () => void,
    started?: () => void,
  ): Promise<void> | undefined {
    const admission = new Admission(open);
    this.#waiting.set(id, admission);
    deliver();
    const later = admission.outcome();
    if (later === undefined) started?.();
    return started === undefined ? later : later?.then(started);
  }

  /** The core's admission of `id`; a refusal is kept until its answer is dropped (`answered`). */
  decide(id: RequestId, refusal: McpError | undefined): void {
    const admission = this.#waiting.get(id);
    if (admission === undefined) return;
    if (refusal === undefined) this.#waiting.delete(id);
    admission.decide(refusal);
  }

  /**
   * The answer to `id` goes out: a request the core answered without admitting it (one it did not route)
   * may start its response now. True when the core refused it: the stage answers with a status instead.
   */
  answered(id: RequestId): boolean {
    const admission = this.#waiting.get(id);
    if (admission === undefined) return false;
    this.#waiting.delete(id);
    admission.decide(undefined);
    return admission.refused;
  }

  /** The connection ended: every stage still waiting goes on. */
  drop(): void {
    for (const admission of this.#waiting.values()) admission.drop();
    this.#waiting.clear();
  }
}
