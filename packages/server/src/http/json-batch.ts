/** The JSON answer to a 2025-03-26 batch: collects one response per request, then writes an array. */

import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../transport/types.js';
import { type Head, sendJson } from './reply.js';
import { writable } from './sse.js';

export class JsonBatch {
  readonly #responses: JsonRpcMessage[] = [];

  constructor(
    readonly res: ServerResponse,
    readonly expected: number,
  ) {}

  /** Add a response; writes the array once every request of the batch is answered. */
  add(message: JsonRpcMessage, head: Head): void {
    this.#responses.push(message);
    if (this.#responses.length < this.expected || !writable(this.res)) return;
    sendJson(this.res, head, this.#responses);
  }
}
