/**
 * The response side of the fetch adapter: the endpoint's response sink (writeHead, setHeader, write,
 * end, flushHeaders, 'close') turned into a web Response. A body ended at once becomes a plain body; one that is written over time (SSE)
 * becomes a ReadableStream, and cancelling that stream closes the response like a lost socket.
 */

import type { HeaderList, HeaderValue, ResponseSink } from '../http/seam/sink.js';

const encoder = new TextEncoder();

export class FetchSink implements ResponseSink {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  /** Settles with the Response once the status and headers are known and the body has begun. */
  readonly response: Promise<Response>;

  #deliver!: (response: Response) => void;
  #headers = new Headers();
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #onClose: (() => void)[] = [];
  #closed = false;

  constructor() {
    this.response = new Promise((resolve) => {
      this.#deliver = resolve;
    });
  }

  setHeader(name: string, value: HeaderValue | undefined): this {
    if (value === undefined) this.#headers.delete(name);
    else if (Array.isArray(value)) {
      this.#headers.delete(name);
      for (const item of value) this.#headers.append(name, String(item));
    } else this.#headers.set(name, String(value));
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.#headers.get(name) ?? undefined;
  }

  /** Headers as node:http takes them: a flat name/value list or an object. */
  writeHead(status: number, headers?: HeaderList): this {
    this.statusCode = status;
    if (isList(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2)
        this.#headers.set(String(headers[i]), String(headers[i + 1]));
    } else if (headers !== undefined) {
      for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    }
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
    this.#open();
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.headersSent = true;
    this.#open()?.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.headersSent = true;
    if (this.#controller === undefined && !this.destroyed) {
      const empty = chunk === undefined || chunk.length === 0;
      const body = empty ? null : typeof chunk === 'string' ? chunk : (chunk as Uint8Array<ArrayBuffer>);
      this.#deliver(new Response(body, { status: this.statusCode, headers: this.#headers }));
    } else if (this.#controller !== undefined && !this.destroyed) {
      if (chunk !== undefined && chunk.length > 0)
        this.#controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      this.#controller.close();
    }
    queueMicrotask(() => this.#close());
    return this;
  }

  on(event: string, listener: () => void): this {
    if (event === 'close') {
      if (this.#closed) queueMicrotask(listener);
      else this.#onClose.push(listener);
    }
    return this;
  }

  once(event: string, listener: () => void): this {
    return this.on(event, listener);
  }

  off(event: string, listener: () => void): this {
    if (event === 'close') this.#onClose = this.#onClose.filter((item) => item !== listener);
    return this;
  }

  removeListener(event: string, listener: () => void): this {
    return this.off(event, listener);
  }

  /** The client went away (its request was aborted or the body stream cancelled). */
  abort(): void {
    if (this.#closed) return;
    if (!this.writableEnded) {
      this.destroyed = true;
      try {
        this.#controller?.close();
      } catch {
        // already closed by the reader
      }
      // Nobody will read an answer that was never started; settle the promise anyway.
      if (this.#controller === undefined) this.#deliver(new Response(null, { status: 499 }));
    }
    this.#close();
  }

  #open(): ReadableStreamDefaultController<Uint8Array> | undefined {
    if (this.#controller !== undefined || this.destroyed) return this.#controller;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.abort(),
    });
    this.#deliver(new Response(body, { status: this.statusCode, headers: this.#headers }));
    return this.#controller;
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const listeners = this.#onClose;
    this.#onClose = [];
    for (const listener of listeners) listener();
  }
}

function isList(headers: HeaderList | undefined): headers is (string | number | string[])[] {
  return Array.isArray(headers);
}
