/** The JSON answer to a 2025-03-26 batch: collects one response per request, then writes an array. */

import { type Head, sendJson } from '../seam/reply.js';
import type { ResponseSink } from '../seam/sink.js';
import { writable } from './sse.js';

export class JsonBatch {
  /** The JSON texts of the responses so far. */
  readonly #responses: string[] = [];

  constructor(
    readonly res: ResponseSink,
    readonly expected: number,
  ) {}

  /** Add a response (its JSON text); writes the array once every request of the batch is answered. */
  add(text: string, head: Head): void {
    this.#responses.push(text);
    if (this.#responses.length < this.expected || !writable(this.res)) return;
    sendJson(this.res, head, `[${this.#responses.join(',')}]`);
  }
}
