/** Collects the answers to a 2025-03-26 JSON-RPC batch and sends them as one array. */

import type { Batch } from './host.js';
import type { JsonRpcMessage } from './transport.js';

export class BatchCollector implements Batch {
  private readonly responses: Record<string, unknown>[] = [];
  /** Answers to wait for (requests and invalid entries; notifications and responses get none). */
  expected = 0;
  private sealed = false;

  constructor(private readonly send: (messages: JsonRpcMessage[]) => void) {}

  add(response: Record<string, unknown>): void {
    this.responses.push(response);
    this.flush();
  }

  /** A request of the batch was cancelled: it gets no answer. */
  skip(): void {
    this.expected--;
    this.flush();
  }

  /** Every entry has been dispatched. */
  seal(): void {
    this.sealed = true;
    this.flush();
  }

  private flush(): void {
    if (this.sealed && this.responses.length === this.expected && this.expected > 0) {
      this.expected = -1;
      this.send(this.responses);
    }
  }
}
