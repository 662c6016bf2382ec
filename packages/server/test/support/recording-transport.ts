/** A transport that records every message the server sends, as it sends it, and delivers what a test gives it. */
import type { JsonRpcMessage, MessageContext, Transport } from '../../src/core/transport.js';

export interface RecordingTransport extends Transport {
  /** Every message sent so far, batches flattened, in order. */
  readonly sent: JsonRpcMessage[];
  /** Hands a message to the server as if it had arrived. */
  deliver(message: unknown, context?: MessageContext): void;
}

export function recordingTransport(): RecordingTransport {
  const transport: RecordingTransport = {
    sent: [],
    async start() {},
    send(message) {
      transport.sent.push(...(Array.isArray(message) ? message : [message]));
    },
    async close() {
      transport.onclose?.();
    },
    deliver(message, context) {
      transport.onmessage?.(message, context);
    },
  };
  return transport;
}
