/**
 * Follows the HTTP/1.1 answers on one connection from the bytes that pass (head, then a body framed by
 * `Content-Length`, by chunks, or by the connection's end), so a proxy can tell whether an answer is
 * open on the connection now and whether it is an SSE stream: a cut "mid-stream" is a cut of an answer
 * that has started and not ended.
 */

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

type State =
  | { readonly at: 'idle' }
  | { readonly at: 'head'; text: Buffer }
  | { readonly at: 'length'; left: number }
  | { readonly at: 'chunk-size'; line: Buffer }
  | { readonly at: 'chunk-data'; left: number }
  | { readonly at: 'trailers'; text: Buffer }
  | { readonly at: 'until-close' };

export class ResponseFramer {
  #state: State = { at: 'idle' };
  /** The answer open now is an SSE stream. */
  #eventStream = false;

  /** An answer has started on the connection and has not ended. */
  get open(): boolean {
    return this.#state.at !== 'idle';
  }

  /** An SSE answer is open on the connection now. */
  get streaming(): boolean {
    return this.open && this.#eventStream;
  }

  /** Read the next bytes the server sent. */
  feed(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) rest = this.#step(rest);
  }

  /** Consume what the current state can of `bytes`; returns what is left. */
  #step(bytes: Buffer): Buffer {
    const s = this.#state;
    switch (s.at) {
      case 'idle':
        this.#state = { at: 'head', text: Buffer.alloc(0) };
        return bytes;
      case 'head': {
        const text = Buffer.concat([s.text, bytes]);
        const end = text.indexOf(HEAD_END);
        if (end < 0) {
          s.text = text;
          return Buffer.alloc(0);
        }
        this.#begin(text.subarray(0, end).toString('latin1'));
        return text.subarray(end + HEAD_END.length);
      }
      case 'length': {
        const take = Math.min(s.left, bytes.length);
        s.left -= take;
        if (s.left === 0) this.#state = { at: 'idle' };
        return bytes.subarray(take);
      }
      case 'chunk-size': {
        const line = Buffer.concat([s.line, bytes]);
        const end = line.indexOf(CRLF);
        if (end < 0) {
          s.line = line;
          return Buffer.alloc(0);
        }
        const size = Number.parseInt(line.subarray(0, end).toString('latin1').split(';')[0] ?? '', 16);
        this.#state =
          size > 0
            ? { at: 'chunk-data', left: size + CRLF.length }
            : { at: 'trailers', text: Buffer.alloc(0) };
        return line.subarray(end + CRLF.length);
      }
      case 'chunk-data': {
        const take = Math.min(s.left, bytes.length);
        s.left -= take;
        if (s.left === 0) this.#state = { at: 'chunk-size', line: Buffer.alloc(0) };
        return bytes.subarray(take);
      }
      case 'trailers': {
        // No trailers: the empty line right away; else header lines until an empty one.
        const text = Buffer.concat([s.text, bytes]);
        const end = text.subarray(0, 2).equals(CRLF) ? 0 : text.indexOf(HEAD_END);
        if (end < 0) {
          s.text = text;
          return Buffer.alloc(0);
        }
        this.#state = { at: 'idle' };
        return text.subarray(end === 0 ? CRLF.length : end + HEAD_END.length);
      }
      case 'until-close':
        return Buffer.alloc(0);
    }
  }

  /** A head arrived: how its body is framed. */
  #begin(head: string): void {
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    const header = (name: string): string | undefined =>
      new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*)`, 'i').exec(head)?.[1]?.trim();
    this.#eventStream = /text\/event-stream/i.test(header('content-type') ?? '');
    const length = header('content-length');
    if (status < 200 || status === 204 || status === 304) this.#state = { at: 'idle' };
    else if (/chunked/i.test(header('transfer-encoding') ?? ''))
      this.#state = { at: 'chunk-size', line: Buffer.alloc(0) };
    else if (length !== undefined)
      this.#state = Number(length) > 0 ? { at: 'length', left: Number(length) } : { at: 'idle' };
    else this.#state = { at: 'until-close' };
  }
}
