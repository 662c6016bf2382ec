/**
 * The cut proxy's view of a connection: whether an SSE answer is open on it, followed through answers
 * framed by Content-Length and by chunks, split anywhere across reads.
 */

import { describe, expect, it } from 'vitest';
import { ResponseFramer } from './support/http-framing.js';

const sse = (body: string): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
const chunk = (text: string): string => `${text.length.toString(16)}\r\n${text}\r\n`;
const chunkedHead =
  'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n';

/** Feed `text` in pieces of `size` bytes; the framer's `streaming` after each piece. */
function feed(framer: ResponseFramer, text: string, size = text.length): boolean[] {
  const seen: boolean[] = [];
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) {
    framer.feed(bytes.subarray(at, at + size));
    seen.push(framer.streaming);
  }
  return seen;
}

describe('ResponseFramer', () => {
  it('an SSE answer with a Content-Length is over once its body passed', () => {
    const framer = new ResponseFramer();
    const text = sse('id: a.1\ndata: {}\n\n');
    expect(feed(framer, text, text.length - 3)).toEqual([true, false]);
    expect(framer.open).toBe(false);
  });

  it('a chunked SSE answer stays open until its last chunk, whatever the reads split', () => {
    for (const size of [1, 3, 7, 1000]) {
      const framer = new ResponseFramer();
      feed(framer, chunkedHead + chunk('id: a.1\ndata:\n\n') + chunk(': keep-alive\n\n'), size);
      expect(framer.streaming, `pieces of ${size}`).toBe(true);
      feed(framer, `${chunk('data: {"id":1}\n\n')}0\r\n\r\n`, size);
      expect(framer.streaming, `pieces of ${size}`).toBe(false);
    }
  });

  it('a JSON answer is open but not a stream; answers in one read are followed one after another', () => {
    const framer = new ResponseFramer();
    const json = 'HTTP/1.1 202 Accepted\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';
    feed(framer, `${json}${chunkedHead}${chunk('id: b.1\ndata:\n\n')}`);
    expect(framer.streaming).toBe(true);
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n';
    const other = new ResponseFramer();
    feed(other, `${head}{"a"`);
    expect([other.open, other.streaming]).toEqual([true, false]);
  });
});
