/**
 * MCP over stdio: newline-delimited JSON in, newline-delimited JSON out. Sends made in one turn of
 * the event loop leave in one write. Only this transport writes to its output stream.
 */

import type { Readable, Writable } from 'node:stream';
import { encodeJson } from '../core/raw-json.js';
import type { JsonRpcMessage, MessageContext, SendOptions, Transport } from '../core/transport.js';
import { LineSplitter } from './line-splitter.js';

export interface StdioTransportOptions {
  /** Default process.stdin. */
  input?: Readable;
  /** Default process.stdout. */
  output?: Writable;
  /** Longest accepted line; longer ones are answered with -32600 and skipped. Default 16 MiB. */
  maxFrameBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export class StdioServerTransport implements Transport {
  readonly network = 'pipe';
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly splitter: LineSplitter;
  private queue: string[] = [];
  private scheduled = false;
  private blocked = false;
  private closed = false;
  private readonly flushBound = (): void => this.flush();
  private readonly onData = (chunk: string): void => {
    this.splitter.push(chunk);
  };
  private readonly onEnd = (): void => {
    this.splitter.end();
    if (this.onend) this.onend();
    else void this.close();
  };
  private readonly onInputError = (error: Error): void => this.onerror?.(error);
  /** The reader of our output went away (EPIPE): nothing more can be said, so close. */
  private readonly onOutputError = (error: Error): void => {
    this.onerror?.(error);
    this.queue = [];
    void this.close();
  };
  private readonly onDrain = (): void => {
    this.blocked = false;
    if (!this.closed) this.input.resume();
    this.flush();
  };

  onmessage?: (message: unknown, context?: MessageContext) => void;
  onparseerror?: (error: Error & { jsonRpcCode?: number }, context?: MessageContext) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The input ended: the core finishes what is in flight, then closes. Without it, close at once. */
  onend?: () => void;

  constructor(options: StdioTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.splitter = new LineSplitter(
      max,
      (line) => this.receive(line),
      (bytes) => {
        const error = Object.assign(
          new Error(`Invalid Request: frame of ${bytes} bytes exceeds the ${max}-byte limit and was skipped`),
          { jsonRpcCode: -32600 },
        );
        this.onparseerror?.(error);
      },
    );
  }

  async start(): Promise<void> {
    // Decoding in the stream keeps multi-byte characters split across chunks whole.
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('drain', this.onDrain);
    this.output.on('error', this.onOutputError);
    this.input.resume();
  }

  private receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.onparseerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], _options?: SendOptions): void {
    if (this.closed) {
      this.onerror?.(new Error('send on a closed stdio transport'));
      return;
    }
    this.queue.push(encodeJson(message));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushBound);
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (this.blocked || this.queue.length === 0) return;
    const text = this.queue.length === 1 ? `${this.queue[0]}\n` : `${this.queue.join('\n')}\n`;
    this.queue = [];
    try {
      // A reader that does not keep up stops our reading too: answers never pile up without bound.
      if (!this.output.write(text)) {
        this.blocked = true;
        this.input.pause();
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.blocked = false;
    this.flush();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.output.off('drain', this.onDrain);
    this.input.pause();
    this.onclose?.();
  }
}
